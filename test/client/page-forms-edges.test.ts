// iterateLeaderboard at the edges of the page forms: the last row's id is the one Stripe starts
// after, Laravel's next_page_url and a camelCase hasMore are followed, a next that no URL parser
// takes is named, and an empty or null sign of more ends the pages without an error.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HubClient, HubPagingError, iterateLeaderboard } from "public-hub-sdk";

const BASE = "https://hub.test/api/v1";
const BOARD = `${BASE}/hub/alpha/leaderboard`;
const ROWS = Array.from({ length: 6 }, (_, i) => ({ id: `r${i + 1}`, rank: i + 1, wallet: `0x${i + 1}` }));

const server = setupServer();
const sent: string[] = [];
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

const serve = (answer: (url: URL) => Response) =>
  server.use(
    http.get(BOARD, ({ request }) => {
      const url = new URL(request.url);
      sent.push(url.search);
      return answer(url);
    }),
  );
const hub = () => new HubClient({ baseUrl: BASE, clientId: "pk_test", hub: "alpha", logLevel: "off", retry: 0 });

async function drain(query?: { limit: number }): Promise<{ ranks: unknown[]; error: unknown }> {
  const ranks: unknown[] = [];
  try {
    for await (const row of iterateLeaderboard(hub(), query)) ranks.push(row.rank);
  } catch (error) {
    return { ranks, error };
  }
  return { ranks, error: undefined };
}

/** Three rows a page, from the row after `after` (an id). */
const from = (url: URL, param: string) => {
  const after = url.searchParams.get(param);
  const start = after === null ? 0 : ROWS.findIndex((row) => row.id === after) + 1;
  const rows = ROWS.slice(start, start + 3);
  return { rows, more: start + 3 < ROWS.length };
};

describe("iterateLeaderboard: the page forms' edges", () => {
  it("Stripe's has_more starts after the last row of a page of three, not the second", async () => {
    serve((url) => {
      const { rows, more } = from(url, "starting_after");
      return HttpResponse.json({ data: rows, has_more: more });
    });
    expect(await drain({ limit: 3 })).toEqual({ ranks: [1, 2, 3, 4, 5, 6], error: undefined });
    expect(sent).toEqual(["?limit=3", "?limit=3&starting_after=r3"]);
  });

  it("a camelCase hasMore is followed as has_more is", async () => {
    serve((url) => {
      const { rows, more } = from(url, "starting_after");
      return HttpResponse.json({ data: rows, hasMore: more });
    });
    expect(await drain({ limit: 3 })).toEqual({ ranks: [1, 2, 3, 4, 5, 6], error: undefined });
  });

  it("Laravel's next_page_url is followed, and its null on the last page ends the pages", async () => {
    serve((url) => {
      const page = Number(url.searchParams.get("page") ?? 1);
      const rows = ROWS.slice((page - 1) * 3, page * 3);
      return HttpResponse.json({ data: rows, next_page_url: page < 2 ? `${BOARD}?page=${page + 1}` : null });
    });
    expect(await drain({ limit: 3 })).toEqual({ ranks: [1, 2, 3, 4, 5, 6], error: undefined });
    expect(sent).toEqual(["?limit=3", "?limit=3&page=2"]);
  });

  it("a next that no URL parser takes is named as no URL", async () => {
    serve(() => HttpResponse.json({ results: ROWS.slice(0, 3), next: "http://[broken" }));
    const { ranks, error } = await drain();
    expect(ranks).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(HubPagingError);
    expect((error as Error).message).toContain("its next is no URL; not followed");
  });

  it.each([
    ["its id is missing", {}, "(undefined)"],
    ["its id is null", { id: null }, "(null)"],
  ])("has_more true with a last row whose id cannot be sent (%s) says which id", async (_, id, shown) => {
    serve(() => HttpResponse.json({ data: [{ rank: 1, wallet: "0x1", ...id }], has_more: true }));
    const { error } = await drain();
    expect((error as Error).message).toContain(`has_more is true but its last row has no id ${shown} to start after`);
  });

  it.each([{ next: "" }, { more: null }, { more: false }, { more: "" }, { anymore: "yes" }])("a page with %j is the last: no error, one request", async (sign) => {
    serve(() => HttpResponse.json({ entries: ROWS.slice(0, 2), ...sign }));
    expect(await drain()).toEqual({ ranks: [1, 2], error: undefined });
    expect(sent).toHaveLength(1);
  });

  it("hasmore, in any case and without an underscore, still says there is more", async () => {
    serve(() => HttpResponse.json({ entries: ROWS.slice(0, 2), hasmore: 1 }));
    const { error } = await drain();
    expect((error as Error).message).toContain("it says there is more (hasmore: 1)");
  });
});
