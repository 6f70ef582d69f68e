// iterateLeaderboard: every paging style read to the end, the bounds that end it with an error
// (maxPages, a repeated page, a Link elsewhere), the profile pinning the style and the rows, and
// the page parameters of getLeaderboard checked before anything is sent.
import fc from "fast-check";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as z from "zod";
import { HubAbortError, HubClient, HubPagingError, HubValidationError, iterateLeaderboard, type HubClientOptions, type HubProfile } from "public-hub-sdk";
import { params, timeoutFor } from "../properties/settings";

const BASE = "https://hub.test/api/v1";
const BOARD = `${BASE}/hub/alpha/leaderboard`;
const ROWS = Array.from({ length: 5 }, (_, i) => ({ rank: i + 1, wallet: `0x${i + 1}` }));

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

/** Every leaderboard request the hub received, in order. */
const sent: URL[] = [];
/** The hub answers each leaderboard request with `answer(url)`. */
const serve = (answer: (url: URL) => Response) =>
  server.use(
    http.get(BOARD, ({ request }) => {
      const url = new URL(request.url);
      sent.push(url);
      return answer(url);
    }),
  );
const queries = () => sent.map((url) => url.search);
const hub = (options: Partial<HubClientOptions> = {}) => new HubClient({ baseUrl: BASE, clientId: "pk_test", hub: "alpha", logLevel: "off", retry: 0, ...options });

/** The rows an iteration gave, and the error that ended it, if any. */
async function drain<T>(rows: AsyncIterable<T>): Promise<{ rows: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const row of rows) seen.push(row);
  } catch (error) {
    return { rows: seen, error };
  }
  return { rows: seen, error: undefined };
}

const size = (url: URL) => Number(url.searchParams.get("limit") ?? 2);
/** ROWS from `from`, one page of the request's `limit`; whether rows remain after it. */
const pageFrom = (from: number, url: URL) => {
  const rows = ROWS.slice(from, from + size(url));
  return { rows, end: from + rows.length, more: from + rows.length < ROWS.length };
};

// One hub per style, each reading its own page parameter.
const relay = (url: URL) => {
  const from = Number(url.searchParams.get("after")?.slice(1) ?? 0);
  const { rows, end, more } = pageFrom(from, url);
  return HttpResponse.json({ edges: rows.map((node, i) => ({ node, cursor: `c${from + i + 1}` })), pageInfo: { hasNextPage: more, endCursor: `c${end}` } });
};
const cursor = (url: URL) => {
  const { rows, end, more } = pageFrom(Number(url.searchParams.get("cursor")?.slice(1) ?? 0), url);
  return HttpResponse.json({ entries: rows, next_cursor: more ? `k${end}` : null });
};
const camelCursorInMeta = (url: URL) => {
  const { rows, end, more } = pageFrom(Number(url.searchParams.get("cursor")?.slice(1) ?? 0), url);
  return HttpResponse.json({ data: rows, meta: more ? { nextCursor: `k${end}` } : { nextCursor: null } });
};
const pages = (url: URL) => {
  const page = Number(url.searchParams.get("page") ?? 1);
  return HttpResponse.json({ rows: pageFrom((page - 1) * size(url), url).rows, page, pages: Math.ceil(ROWS.length / size(url)) });
};
const totalPagesInPagination = (url: URL) => {
  const page = Number(url.searchParams.get("page") ?? 1);
  return HttpResponse.json({ items: pageFrom((page - 1) * size(url), url).rows, pagination: { page, total_pages: Math.ceil(ROWS.length / size(url)) } });
};
/** A bare array, the next page in `Link` beside a `prev` one; `relative` writes it as a path. */
const link = (relative: boolean) => (url: URL) => {
  const from = Number(url.searchParams.get("offset") ?? 0);
  const { rows, end, more } = pageFrom(from, url);
  const next = `${relative ? new URL(BOARD).pathname : BOARD}?limit=${size(url)}&offset=${end}`;
  const headers: Record<string, string> = more ? { link: `<${BOARD}?offset=0>; rel="prev", <${next}>; rel=next` } : { link: `<${BOARD}?offset=0>; rel="prev first"` };
  return HttpResponse.json(rows, { headers });
};

describe("iterateLeaderboard: each paging style, rows in order across pages", () => {
  it.each([
    ["Relay pageInfo.hasNextPage/endCursor, sent as after", relay, ["?limit=2", "?limit=2&after=c2", "?limit=2&after=c4"]],
    ["next_cursor, sent as cursor", cursor, ["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]],
    ["nextCursor one object deep (meta)", camelCursorInMeta, ["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]],
    ["page and pages, sent as page", pages, ["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]],
    ["page and total_pages one object deep (pagination)", totalPagesInPagination, ["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]],
    ['an absolute Link rel="next": its query parameters but limit', link(false), ["?limit=2", "?limit=2&offset=2", "?limit=2&offset=4"]],
    ['a relative Link rel="next"', link(true), ["?limit=2", "?limit=2&offset=2", "?limit=2&offset=4"]],
  ] as const)("%s", async (_, answer, requests) => {
    serve(answer);
    const { rows, error } = await drain(iterateLeaderboard(hub(), { limit: 2 }));
    expect(error).toBeUndefined();
    expect(rows).toEqual(ROWS);
    expect(queries()).toEqual(requests);
  });

  it("the page size is the hub's own when no limit is given", async () => {
    serve(cursor);
    expect((await drain(iterateLeaderboard(hub()))).rows).toEqual(ROWS);
    expect(queries()).toEqual(["", "?cursor=k2", "?cursor=k4"]);
  });

  it("one page when the answer shows no paging: an object of rows, or a bare array without Link", async () => {
    serve(() => HttpResponse.json({ entries: ROWS.slice(0, 2), total: 5 }));
    expect(await drain(iterateLeaderboard(hub(), { limit: 2 }))).toEqual({ rows: ROWS.slice(0, 2), error: undefined });
    server.use(http.get(BOARD, ({ request }) => (sent.push(new URL(request.url)), HttpResponse.json(ROWS.slice(0, 2)))));
    expect(await drain(iterateLeaderboard(hub(), { limit: 2 }))).toEqual({ rows: ROWS.slice(0, 2), error: undefined });
    expect(sent).toHaveLength(2);
  });

  it("the last page says so by hasNextPage false, a null cursor, page = pages, or no rel=next: no request after it", async () => {
    serve(() => HttpResponse.json({ edges: [{ node: ROWS[0] }], pageInfo: { hasNextPage: false, endCursor: "c1" } }));
    await drain(iterateLeaderboard(hub()));
    serve(() => HttpResponse.json({ entries: [ROWS[0]], next_cursor: "" }));
    await drain(iterateLeaderboard(hub()));
    serve(() => HttpResponse.json({ entries: [ROWS[0]], page: 3, pages: 3 }));
    await drain(iterateLeaderboard(hub()));
    expect(sent).toHaveLength(3);
  });

  it("pages are requested as the rows are taken: break sends no further request", async () => {
    serve(cursor);
    for await (const row of iterateLeaderboard(hub(), { limit: 2 })) if (row.rank === 2) break;
    expect(sent).toHaveLength(1);
  });

  it("the envelope's paging fields are read beside the payload (unwrap)", async () => {
    serve((url) => {
      const { rows, end, more } = pageFrom(Number(url.searchParams.get("cursor")?.slice(1) ?? 0), url);
      return HttpResponse.json({ data: rows, next_cursor: more ? `k${end}` : null });
    });
    expect((await drain(iterateLeaderboard(hub({ unwrap: "data" }), { limit: 2 }))).rows).toEqual(ROWS);
    expect(sent).toHaveLength(3);
  });

  it("a schema that drops the paging fields (zod strips unknown keys) still pages, its rows typed and checked", async () => {
    serve(relay);
    const schemas = { leaderboard: z.object({ edges: z.array(z.object({ node: z.object({ rank: z.number(), wallet: z.string() }) })) }) };
    const rows: Array<{ rank: number; wallet: string }> = [];
    const typed = new HubClient({ baseUrl: BASE, clientId: "pk_test", hub: "alpha", logLevel: "off", schemas });
    for await (const row of iterateLeaderboard(typed, { limit: 2 })) rows.push(row); // typed by the schema: { rank: number; wallet: string }
    expect(rows).toEqual(ROWS);
    expect(sent).toHaveLength(3);
  });

  it("the signal cancels the next page's request", async () => {
    serve(cursor);
    const controller = new AbortController();
    const { rows, error } = await drain(
      (async function* () {
        for await (const row of iterateLeaderboard(hub(), { limit: 2 }, { signal: controller.signal })) {
          controller.abort();
          yield row;
        }
      })(),
    );
    expect(error).toBeInstanceOf(HubAbortError);
    expect(rows).toEqual(ROWS.slice(0, 2));
    expect(sent).toHaveLength(1);
  });
});

describe("iterateLeaderboard ends with a HubPagingError rather than a cut list or a loop", () => {
  /** A hub that never ends: page n holds one row and announces page n + 1. */
  const endless = (url: URL) => {
    const n = Number(url.searchParams.get("cursor")?.slice(1) ?? 0);
    return HttpResponse.json({ entries: [{ rank: n + 1, wallet: `0x${n + 1}` }], next_cursor: `k${n + 1}` });
  };

  it("maxPages: the rows of those pages first, then the error naming maxPages and the page not read", async () => {
    serve(endless);
    const { rows, error } = await drain(iterateLeaderboard(hub(), {}, { maxPages: 3 }));
    expect(rows.map((row) => row.rank)).toEqual([1, 2, 3]);
    expect(error).toBeInstanceOf(HubPagingError);
    expect(error).toMatchObject({ name: "HubPagingError", reason: "max-pages", pages: 3, next: { cursor: "k3" } });
    expect((error as Error).message).toBe(
      'Leaderboard pages stopped (max-pages) after 3 pages, their rows given: maxPages (3) reached and the hub announces another page (cursor="k3"): raise maxPages, or resume with { page: error.next }',
    );
    expect(sent).toHaveLength(3);
  });

  it("maxPages is 100 by default", async () => {
    serve(endless);
    const { rows, error } = await drain(iterateLeaderboard(hub()));
    expect(rows).toHaveLength(100);
    expect(error).toMatchObject({ reason: "max-pages", pages: 100 });
    expect(sent).toHaveLength(100);
  });

  it("a list of exactly maxPages pages is whole: no error", async () => {
    serve(cursor);
    expect(await drain(iterateLeaderboard(hub(), { limit: 2 }, { maxPages: 3 }))).toEqual({ rows: ROWS, error: undefined });
  });

  it("error.next resumes where the cut was", async () => {
    serve(cursor);
    const first = await drain(iterateLeaderboard(hub(), { limit: 2 }, { maxPages: 1 }));
    const next = (first.error as HubPagingError).next!;
    expect(next).toEqual({ cursor: "k2" });
    const rest = await drain(iterateLeaderboard(hub(), { limit: 2, page: next }));
    expect([...first.rows, ...rest.rows]).toEqual(ROWS);
    expect(queries()).toEqual(["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]);
  });

  it("a cursor the hub announces again ends with an error naming it, after the rows read", async () => {
    serve(() => HttpResponse.json({ entries: [ROWS[0]], next_cursor: "same" }));
    const { rows, error } = await drain(iterateLeaderboard(hub()));
    expect(rows).toEqual([ROWS[0], ROWS[0]]);
    expect(error).toMatchObject({ reason: "repeated-page", pages: 2, next: { cursor: "same" } });
    expect((error as Error).message).toContain('the hub announced a next page already read (cursor="same"): stopped rather than loop');
    expect(sent).toHaveLength(2);
  });

  it("a page number announced again (page 1 of 3, always) is a repeat too; so is a Link back to the first page", async () => {
    serve(() => HttpResponse.json({ entries: [ROWS[0]], page: 1, pages: 3 }));
    expect((await drain(iterateLeaderboard(hub()))).error).toMatchObject({ reason: "repeated-page", pages: 2, next: { page: 2 } });
    serve(() => HttpResponse.json([ROWS[0]], { headers: { link: `<${BOARD}?limit=1>; rel="next"` } }));
    expect((await drain(iterateLeaderboard(hub(), { limit: 1 }))).error).toMatchObject({ reason: "repeated-page", pages: 1, next: {} });
    expect(sent).toHaveLength(3);
  });

  it.each([
    ["another origin", "https://elsewhere.test/api/v1/hub/alpha/leaderboard?offset=2", "https://elsewhere.test/api/v1/hub/alpha/leaderboard"],
    ["another scheme of the same host", "http://hub.test/api/v1/hub/alpha/leaderboard?offset=2", "http://hub.test/api/v1/hub/alpha/leaderboard"],
    ["another path of the same origin", `${BASE}/hub/beta/leaderboard?offset=2`, "https://hub.test/api/v1/hub/beta/leaderboard"],
  ])("a Link to %s is not followed: the rows read, then an error naming where it points", async (_, target, named) => {
    serve(() => HttpResponse.json(ROWS.slice(0, 2), { headers: { link: `<${target}>; rel="next"` } }));
    const { rows, error } = await drain(iterateLeaderboard(hub(), { limit: 2 }));
    expect(rows).toEqual(ROWS.slice(0, 2));
    expect(error).toBeInstanceOf(HubPagingError);
    expect(error).toMatchObject({ reason: "unfollowable-next", pages: 1, next: undefined });
    expect((error as Error).message).toContain(`its Link rel="next" points to ${named}, not this client's ${BOARD}; not followed`);
    expect(sent).toHaveLength(1);
  });

  it("a next page announced without a cursor that can be sent is an error, not the end", async () => {
    serve(() => HttpResponse.json({ edges: [{ node: ROWS[0] }], pageInfo: { hasNextPage: true, endCursor: null } }));
    expect((await drain(iterateLeaderboard(hub()))).error).toMatchObject({ reason: "unfollowable-next", pages: 1 });
    serve(() => HttpResponse.json({ entries: [ROWS[0]], next_cursor: { id: 2 } }));
    expect((await drain(iterateLeaderboard(hub()))).error).toMatchObject({ reason: "unfollowable-next", pages: 1 });
  });
});

describe("iterateLeaderboard with a hub profile: the declared style and rows, nothing guessed", () => {
  /** An answer that shows every style at once: a cursor, page numbers and a Link. */
  const everything = (url: URL) => {
    const from = Number(url.searchParams.get("cursor")?.slice(1) ?? url.searchParams.get("offset") ?? (Number(url.searchParams.get("page") ?? 1) - 1) * size(url));
    const { rows, end, more } = pageFrom(from, url);
    const page = Math.floor(from / size(url)) + 1;
    const headers: Record<string, string> = more ? { link: `<${BOARD}?offset=${end}>; rel="next"` } : {};
    return HttpResponse.json({ entries: rows, next_cursor: more ? `k${end}` : null, page, pages: Math.ceil(ROWS.length / size(url)) }, { headers });
  };
  const profile = (pages: HubProfile["leaderboard"] extends infer L ? (L extends { pages?: infer P } ? P : never) : never): HubProfile => ({ version: 1, leaderboard: { rows: "entries", pages } });

  it.each([
    ["inferred (no profile): the cursor, the first style found", undefined, ["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]],
    ["page", profile("page"), ["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]],
    ["link", profile("link"), ["?limit=2", "?limit=2&offset=2", "?limit=2&offset=4"]],
    ["cursor", profile("cursor"), ["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]],
    ["none: one page, whatever the answer shows", profile("none"), ["?limit=2"]],
  ] as const)("%s", async (_, declared, requests) => {
    serve(everything);
    const { rows, error } = await drain(iterateLeaderboard(hub(declared ? { profile: declared } : {}), { limit: 2 }));
    expect(error).toBeUndefined();
    expect(rows).toEqual(ROWS.slice(0, requests.length * 2));
    expect(queries()).toEqual(requests);
  });

  it("relay declared, which the answer does not show while it says there is more: a HubPagingError after its rows, never a silent stop", async () => {
    serve(everything);
    const { rows, error } = await drain(iterateLeaderboard(hub({ profile: profile("relay") }), { limit: 2 }));
    expect(rows).toEqual(ROWS.slice(0, 2));
    expect(error).toMatchObject({ name: "HubPagingError", reason: "unfollowable-next", pages: 1 });
    expect((error as Error).message).toMatch(/it says there is more \(next_cursor: "k2"\) in a form not followed/);
    expect(queries()).toEqual(["?limit=2"]);
  });

  it("the profile's rows are read exactly where it says, not where the SDK would look first", async () => {
    serve((url) => {
      const { rows, end, more } = pageFrom(Number(url.searchParams.get("cursor")?.slice(1) ?? 0), url);
      return HttpResponse.json({ entries: [{ decoy: true }], scores: rows, next_cursor: more ? `k${end}` : null });
    });
    expect((await drain(iterateLeaderboard(hub({ profile: { version: 1, leaderboard: { rows: "scores", pages: "cursor" } } }), { limit: 2 }))).rows).toEqual(ROWS);
  });

  it("a profile whose pages is no known style is a HubValidationError, nothing sent", async () => {
    serve(cursor);
    const { error } = await drain(iterateLeaderboard(hub({ profile: { version: 1, leaderboard: { rows: "entries", pages: "offset" as never } } })));
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as Error).message).toBe("Invalid hub profile: leaderboard.pages: leaderboard.pages must be one of none, relay, cursor, page, has-more, next, link");
    expect(sent).toHaveLength(0);
  });
});

describe("page parameters: checked before anything is sent", () => {
  const answerEmpty = () => serve(() => HttpResponse.json({ entries: [] }));
  const LONE_SURROGATE = /[\ud800-\udfff]/u;
  const wellFormed = (text: string) => text.trim() !== "" && text !== "." && text !== ".." && !LONE_SURROGATE.test(text);
  const goodName = fc.oneof(fc.constantFrom("after", "cursor", "page", "offset", "a b", "ünï", "a&b=c"), fc.string({ minLength: 1, maxLength: 8 })).filter((name) => wellFormed(name) && name !== "limit");
  const goodValue = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }).filter(wellFormed), fc.maxSafeInteger(), fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, "w😀", "%2F", "?x=1#y"));
  const badValue = fc.oneof(
    fc.constantFrom<unknown>("", " ", "\t\n", ".", "..", "\ud800", "a\udfffb", 1.5, -0.5, Number.NaN, Infinity, -Infinity, 2 ** 53, -(2 ** 53), 1e21, true, false, null, undefined, {}, [], ["x"], () => 1),
    fc.double().filter((d) => !Number.isSafeInteger(d)),
    fc.bigInt(),
    fc.string({ maxLength: 6 }).map((text) => `${text}\ud800`),
  );
  const badName = fc.constantFrom("", " ", ".", "..", "\ud800", "x\udc00", "limit");
  const badEntry = fc.oneof(fc.tuple(goodName, badValue), fc.tuple(badName, goodValue));
  const goods = fc.array(fc.tuple(goodName, goodValue), { maxLength: 3 });
  /** An object of page parameters with at least one bad one (anywhere), or no object at all. */
  const badPage = fc.oneof(
    { weight: 4, arbitrary: fc.tuple(goods, badEntry, goods).map(([before, bad, after]) => Object.fromEntries([...before.filter(([name]) => name !== bad[0]), bad, ...after.filter(([name]) => name !== bad[0])])) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(null, "after=x", 5, [], [["after", "x"]], true) },
  );

  it(
    "any non-conforming page is a HubValidationError and nothing is sent, by getLeaderboard and by iterateLeaderboard",
    async () => {
      answerEmpty();
      await fc.assert(
        fc.asyncProperty(badPage, async (page) => {
          const client = hub();
          const direct = await client.getLeaderboard({ limit: 2, page: page as never }).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect(direct).toBeInstanceOf(HubValidationError);
          expect((await drain(iterateLeaderboard(client, { limit: 2, page: page as never }))).error).toBeInstanceOf(HubValidationError);
          expect(sent).toHaveLength(0);
        }),
        params(200),
      );
    },
    timeoutFor(20_000),
  );

  it(
    "any conforming page is sent as query parameters beside limit, each exactly as given",
    async () => {
      answerEmpty();
      await fc.assert(
        fc.asyncProperty(goods, async (entries) => {
          sent.length = 0;
          const page = Object.fromEntries(entries);
          await hub().getLeaderboard({ limit: 2, page });
          expect(sent).toHaveLength(1);
          // In the object's own order (integer-like names first, as JavaScript orders them).
          const expected = Object.entries({ limit: 2, ...page }).map(([name, value]) => [name, String(value)]);
          expect([...sent[0]!.searchParams]).toEqual(expected);
        }),
        params(100),
      );
    },
    timeoutFor(20_000),
  );

  it("names the parameter at fault; limit goes beside page, not in it", async () => {
    const refusal = (page: unknown) => hub().getLeaderboard({ page: page as never }).then(() => "sent", (error: Error) => error.message);
    expect(await refusal({ after: "" })).toBe("Invalid leaderboard query: page.after: page.after must not be empty");
    expect(await refusal({ cursor: "a\ud800" })).toBe("Invalid leaderboard query: page.cursor: page.cursor must not hold a lone surrogate");
    expect(await refusal({ page: 2.5 })).toBe("Invalid leaderboard query: page.page: page.page must be a string");
    expect(await refusal({ limit: 5 })).toBe("Invalid leaderboard query: page: page must be an object without limit");
    expect(await refusal("after=x")).toBe("Invalid leaderboard query: page: page must be an object without limit");
    expect(sent).toHaveLength(0);
  });

  it("maxPages and the options are checked too", async () => {
    for (const options of [{ maxPages: 0 }, { maxPages: 1.5 }, { maxPages: "3" }, { signal: "stop" }, { maxpages: 3 }, 5]) {
      expect((await drain(iterateLeaderboard(hub(), {}, options as never))).error).toBeInstanceOf(HubValidationError);
    }
    expect((await drain(iterateLeaderboard(hub(), "x" as never))).error).toBeInstanceOf(HubValidationError);
    expect(sent).toHaveLength(0);
  });
});

// The page forms of Django REST framework, JSON:API, Stripe and the bare `cursor` (issue: pages stopped after the first, silently).
const drf = (relative: boolean) => (url: URL) => {
  const page = Number(url.searchParams.get("page") ?? 1);
  const { rows, more } = pageFrom((page - 1) * size(url), url);
  const next = `${relative ? new URL(BOARD).pathname : BOARD}?limit=${size(url)}&page=${page + 1}`;
  return HttpResponse.json({ count: ROWS.length, next: more ? next : null, previous: null, results: rows });
};
const jsonApi = (url: URL) => {
  const from = Number(url.searchParams.get("page[offset]") ?? 0);
  const { rows, end, more } = pageFrom(from, url);
  return HttpResponse.json({ data: rows, links: { self: BOARD, next: more ? `${BOARD}?page%5Boffset%5D=${end}` : null } });
};
const stripe = (url: URL) => {
  const after = url.searchParams.get("starting_after");
  const from = after === null ? 0 : ROWS.findIndex((row) => `r${row.rank}` === after) + 1;
  const { rows, more } = pageFrom(from, url);
  return HttpResponse.json({ object: "list", data: rows.map((row) => ({ id: `r${row.rank}`, ...row })), has_more: more });
};
const bareCursor = (url: URL) => {
  const { rows, end, more } = pageFrom(Number(url.searchParams.get("cursor") ?? 0), url);
  return HttpResponse.json({ data: rows, cursor: more ? String(end) : null });
};

describe("iterateLeaderboard: every page form users' hubs send", () => {
  it.each([
    ["Django REST framework's absolute next URL", drf(false), ["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]],
    ["a relative next URL (Django Ninja)", drf(true), ["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]],
    ["JSON:API's links.next", jsonApi, ["?limit=2", "?limit=2&page%5Boffset%5D=2", "?limit=2&page%5Boffset%5D=4"]],
    ["Stripe's has_more, starting after the last row's id", stripe, ["?limit=2", "?limit=2&starting_after=r2", "?limit=2&starting_after=r4"]],
    ["a bare cursor", bareCursor, ["?limit=2", "?limit=2&cursor=2", "?limit=2&cursor=4"]],
  ] as const)("%s", async (_, answer, requests) => {
    serve(answer);
    const { rows, error } = await drain(iterateLeaderboard(hub(), { limit: 2 }));
    expect(error).toBeUndefined();
    expect(rows.map((row) => row.rank)).toEqual(ROWS.map((row) => row.rank));
    expect(queries()).toEqual(requests);
  });

  it.each([
    ["has_more with rows that have no id", () => HttpResponse.json({ data: ROWS.slice(0, 2), has_more: true }), /has_more is true but its last row has no id/],
    ["a next URL to another origin (the client id goes nowhere else)", () => HttpResponse.json({ results: ROWS.slice(0, 2), next: "https://elsewhere.test/api/v1/hub/alpha/leaderboard?page=2" }), /its next points to https:\/\/elsewhere\.test/],
    ["a next that is no URL", () => HttpResponse.json({ results: ROWS.slice(0, 2), next: 2 }), /its next is 2, no URL/],
    ["more said in no form followed", () => HttpResponse.json({ entries: ROWS.slice(0, 2), more: true }), /it says there is more \(more: true\)/],
    ["a next page token", () => HttpResponse.json({ items: ROWS.slice(0, 2), nextPageToken: "t2" }), /nextPageToken: "t2"/],
  ] as const)("a page that says there is more in a form not followed ends with a HubPagingError, its rows given: %s", async (_, answer, message) => {
    serve(answer);
    const { rows, error } = await drain(iterateLeaderboard(hub(), { limit: 2 }));
    expect(rows).toEqual(ROWS.slice(0, 2));
    expect(error).toBeInstanceOf(HubPagingError);
    expect(error).toMatchObject({ reason: "unfollowable-next", pages: 1 });
    expect((error as Error).message).toMatch(message);
    expect(sent).toHaveLength(1);
  });

  it("a last page says so: next null, has_more false; a field named like next but of no page (nextRefresh) is no sign of more", async () => {
    for (const body of [{ results: ROWS.slice(0, 1), next: null }, { data: ROWS.slice(0, 1), has_more: false }, { entries: ROWS.slice(0, 1), nextRefresh: "2026-12-01T00:00:00Z" }]) {
      serve(() => HttpResponse.json(body));
      expect(await drain(iterateLeaderboard(hub()))).toEqual({ rows: body.results ?? body.data ?? body.entries, error: undefined });
    }
    expect(sent).toHaveLength(3);
  });

  it("a profile pins the new forms: next and has-more", async () => {
    serve(drf(false));
    expect((await drain(iterateLeaderboard(hub({ profile: { version: 1, leaderboard: { rows: "results", pages: "next" } } }), { limit: 2 }))).rows).toHaveLength(5);
    serve(stripe);
    expect((await drain(iterateLeaderboard(hub({ profile: { version: 1, leaderboard: { rows: "data", pages: "has-more" } } }), { limit: 2 }))).rows).toHaveLength(5);
  });
});
