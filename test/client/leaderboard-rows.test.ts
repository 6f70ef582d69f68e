// leaderboardRows: where it finds the rows, and the HubResponseError of a board it refuses.
import { describe, expect, it } from "vitest";
import { HubResponseError, HubValidationError, leaderboardRows } from "public-hub-sdk";

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

describe("leaderboardRows with a profile's leaderboard.rows: read exactly there", () => {
  const rows = [{ rank: 1, wallet: "0xa" }];
  const at = (place: string, envelope?: string) => ({ version: 1 as const, ...(envelope && { envelope }), leaderboard: { rows: place } });
  const refusal = (board: object, place: string) => {
    try {
      leaderboardRows(board, at(place));
    } catch (error) {
      expect(error).toBeInstanceOf(HubResponseError);
      return error as HubResponseError;
    }
    throw new Error("leaderboardRows accepted the board");
  };

  it("a key: the array under it, even where the SDK would look first elsewhere", () => {
    const decoy = [{ rank: 9, wallet: "0xdecoy" }];
    expect(leaderboardRows({ entries: decoy, scores: rows }, at("scores"))).toBe(rows);
    expect(leaderboardRows({ entries: decoy, rows }, at("rows"))).toBe(rows);
  });

  it('"": a bare array', () => {
    expect(leaderboardRows(rows, at(""))).toBe(rows);
  });

  it('"edges.node": each edge\'s node', () => {
    expect(leaderboardRows({ edges: [{ node: rows[0], cursor: "c1" }], pageInfo: { hasNextPage: false } }, at("edges.node"))).toEqual(rows);
  });

  it("one envelope deep, as without a profile, and under the profile's envelope", () => {
    expect(leaderboardRows({ data: { scores: rows } }, at("scores"))).toBe(rows);
    expect(leaderboardRows({ data: rows, meta: {} }, at(""))).toBe(rows);
    expect(leaderboardRows({ payload: { scores: rows } }, at("scores", "payload"))).toBe(rows);
    expect(() => leaderboardRows({ payload: { scores: rows } }, at("scores"))).toThrow(HubResponseError);
    // A declared envelope is the only one looked into.
    expect(() => leaderboardRows({ data: { scores: rows } }, at("scores", "payload"))).toThrow(HubResponseError);
  });

  it("a missing key throws the unexpected-shape error naming the place and the keys seen: never the inferred rows", () => {
    const error = refusal({ entries: rows }, "scores");
    expect(error).toMatchObject({ status: 200, problem: "unexpected-shape", body: { entries: rows } });
    expect(error.message).toBe(
      'Unusable 200 response (unexpected-shape): no leaderboard rows at "scores" (the profile\'s leaderboard.rows) in an object with keys "entries": expected an array under "scores" there (also one envelope deep); correct the profile, or leave leaderboard.rows out to have the rows found',
    );
  });

  it('rows elsewhere than declared are refused: an object for "", a bare array for a key, edges without node', () => {
    expect(refusal({ scores: rows, meta: {} }, "").message).toContain("expected a bare array there");
    expect(refusal(rows, "entries").message).toContain('no leaderboard rows at "entries" (the profile\'s leaderboard.rows) in an array: expected an array under "entries" there');
    expect(refusal({ edges: [{ cursor: "c1" }] }, "edges.node").message).toContain('expected an array under "edges" whose every element holds "node" there');
    expect(refusal({ scores: { rank: 1 } }, "scores").message).toContain('no leaderboard rows at "scores"');
  });

  it("without leaderboard.rows in the profile, the rows are inferred as without one", () => {
    expect(leaderboardRows({ entries: rows }, { version: 1 })).toBe(rows);
    expect(leaderboardRows({ entries: rows }, undefined)).toBe(rows);
  });

  it("a leaderboard.rows that is no string is a HubValidationError, not a guess", () => {
    expect(() => leaderboardRows({ entries: rows }, { version: 1, leaderboard: { rows: 5 as never } } as never)).toThrow(HubValidationError);
  });
});
