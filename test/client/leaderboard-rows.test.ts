// leaderboardRows: where it finds the rows, and the HubResponseError of a board it refuses.
import { describe, expect, it } from "vitest";
import { HubResponseError, leaderboardRows } from "public-hub-sdk";

describe("leaderboardRows", () => {
  const rows = [{ rank: 1, wallet: "0xa" }];
  const refusal = (board: object) => {
    try {
      leaderboardRows(board);
    } catch (error) {
      expect(error).toBeInstanceOf(HubResponseError);
      return error as HubResponseError;
    }
    throw new Error("leaderboardRows accepted the board");
  };

  it("reads rows one envelope deep, whichever row key comes first", () => {
    expect(leaderboardRows({ data: { rows } })).toBe(rows);
    expect(leaderboardRows({ meta: { page: 1 }, results: { items: rows } })).toBe(rows);
  });

  it("prefers rows at the top to rows in an envelope", () => {
    const top = [{ rank: 9, wallet: "0xtop" }];
    expect(leaderboardRows({ entries: { rows }, stakers: top })).toBe(top);
  });

  it("does not look two envelopes deep", () => {
    const error = refusal({ data: { data: { rows } } });
    expect(error.message).toBe(
      'Unusable 200 response (unexpected-shape): no leaderboard rows found in an object with keys "data": expected an array, one under entries, rows, leaderboard, items, data, results, stakers, or Relay edges (also one envelope deep); declare the envelope with the client\'s `unwrap` option',
    );
  });

  it("names an object without keys as such", () => {
    const error = refusal({});
    expect(error).toMatchObject({ status: 200, problem: "unexpected-shape", body: {}, bodyExcerpt: "{}" });
    expect(error.message).toContain("no leaderboard rows found in an object with keys (none): expected an array");
  });

  it("keeps the JSON of the board it refuses", () => {
    expect(refusal({ total: 3 })).toMatchObject({ bodyExcerpt: '{"total":3}', body: { total: 3 } });
  });

  it("a board that is not JSON (a cycle) is still refused with a HubResponseError", () => {
    const board: Record<string, unknown> = { name: "loop" };
    board.self = board;
    const error = refusal(board);
    expect(error.bodyExcerpt).toBe("[object Object]");
    expect(error.message).toContain('an object with keys "name", "self"');
  });
});

describe("leaderboardRows: a Relay connection (issue 35)", () => {
  const connection = { edges: [{ node: { rank: 1, wallet: "0xa" }, cursor: "c1" }, { node: { rank: 2, wallet: "0xb" }, cursor: "c2" }], pageInfo: { endCursor: "c2", hasNextPage: true } };

  it("gives each edge's node, at the top or one envelope deep", () => {
    expect(leaderboardRows(connection)).toEqual([{ rank: 1, wallet: "0xa" }, { rank: 2, wallet: "0xb" }]);
    expect(leaderboardRows({ data: connection })).toEqual([{ rank: 1, wallet: "0xa" }, { rank: 2, wallet: "0xb" }]);
  });

  it("edges without a node are no connection: refused, naming Relay edges among what it looks for", () => {
    expect(() => leaderboardRows({ edges: [{ cursor: "c1" }] })).toThrow(/or Relay edges/);
  });
});
