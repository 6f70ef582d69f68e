import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { HubApiError, HubClient, HubValidationError, iterateLeaderboard, leaderboardRows, type HubProfile, type HubSignal } from "public-hub-sdk";
import { createHubMock, type HubMockOptions, type MockDuplicateStyle } from "public-hub-sdk/mock";
import { rateLimitOf } from "../../src/core/answer";
import { caught } from "../helpers/caught";
import { answer, award, get, KEY, mocksOn } from "../helpers/mock-fetch";
import { serverClient } from "../helpers/server-client";

// The mock speaking a hub described by its profile: each answer as sent (plain fetch), then read
// back through the SDK given the same profile.
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const mockWith = mocksOn(server, "profile");
/** A mock speaking `profile` (and `options` beside it), and the SDK's server client reading the same profile. */
const hubOf = (profile: Omit<HubProfile, "version">, options: HubMockOptions = {}) => {
  const full: HubProfile = { version: 1, ...profile };
  const mock = mockWith({ profile: full, ...options });
  return { mock, sdk: serverClient(mock.baseUrl, { profile: full }) };
};
const AWARD = { wallet: "0xabc", amount: 5, reason: "quest", ref: "r-1" };
const FIRST = { ok: true, hub: "alpha", wallet: "0xabc", ref: "r-1", awarded: 5, balance: 5 };

describe("envelope and requestIdHeader", () => {
  it("every success in the profile's envelope, the id under its header; HubClient with the profile unwraps it and reads the id", async () => {
    const { mock } = hubOf({ envelope: "result", requestIdHeader: "X-Correlation-Id" });
    const sent = await get(mock, "/hub/alpha/holder/0xabc");
    expect([sent.headers.get("x-correlation-id"), sent.headers.get("x-request-id")]).toEqual(["req_mock_000001", null]);
    expect(await sent.json()).toEqual({ result: { hub: "alpha", wallet: "0xabc", holder: false, tokens: 0, bits: 0 }, meta: { request_id: "req_mock_000001" } });
    const client = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", profile: { version: 1, envelope: "result" }, retry: 0 });
    const { data, requestId } = await client.getHolder("0xabc").withResponse();
    expect([data, requestId]).toEqual([{ hub: "alpha", wallet: "0xabc", holder: false, tokens: 0, bits: 0 }, "req_mock_000002"]);
  });

  it("an option given beside the profile wins over the field it sets; the profile's other fields stay", async () => {
    const { mock } = hubOf(
      { envelope: "result", errors: "nestjs", requestIdHeader: "X-Correlation-Id", award: { duplicate: { status: 409, code: "ref_taken" } }, leaderboard: { rows: "players" } },
      { envelope: "data", errorFormat: "flat", duplicateStyle: "208", leaderboardFormat: "array" },
    );
    const read = await get(mock, "/hub/alpha");
    expect([Object.keys(await read.json()), read.headers.get("x-correlation-id")]).toEqual([["data", "meta"], "req_mock_000001"]);
    expect(await (await get(mock, "/hub/alpha/leaderboard?limit=1")).json()).toMatchObject({ data: [{ rank: 1 }] });
    expect(await answer(await get(mock, "/hub/nowhere"))).toEqual({ status: 404, body: { code: "hub_not_found", message: 'No hub "nowhere".' } });
    await award(mock, {});
    expect((await award(mock, {})).status).toBe(208);
    // The style's conflict too: the usual 409, in the flat format.
    expect(await answer(await award(mock, { amount: 6 }))).toMatchObject({ status: 409, body: { code: "ref_conflict" } });
  });
});

describe("award answers", () => {
  it("award.status: an applied award is answered 201; the SDK resolves it as applied", async () => {
    const { mock, sdk } = hubOf({ award: { status: 201 } });
    expect(await answer(await award(mock, {}))).toEqual({ status: 201, body: { ...FIRST, duplicate: false } });
    const applied = await sdk.awardPoints({ ...AWARD, ref: "r-2" }).withResponse();
    expect([applied.response.status, applied.duplicate]).toEqual([201, false]);
  });

  it.each<[string, Omit<HubProfile, "version">, { status: number; header?: [string, string]; body: unknown }]>([
    ["a 409 with a code, beside a NestJS body (which has none)", { errors: "nestjs", award: { duplicate: { status: 409, code: "ref_taken" } } }, { status: 409, body: { statusCode: 409, message: "ref r-1 already exists: the award was applied once.", error: "Conflict", code: "ref_taken" } }],
    ["a 200 with a header of the hub's own, the first answer replayed", { award: { duplicate: { status: 200, header: { name: "X-Cache-Replay", value: "hit" } } } }, { status: 200, header: ["x-cache-replay", "hit"], body: FIRST }],
    ["a 202 with a body field one envelope deep", { envelope: "data", award: { status: 202, duplicate: { status: 202, field: { name: "state", value: "seen" } } } }, { status: 202, body: { data: { ...FIRST, state: "seen" }, meta: { request_id: "req_mock_000002" } } }],
  ])("duplicate %s: the repeat answered with exactly that signal; the SDK with the profile reports a duplicate", async (_, profile, expected) => {
    const { mock, sdk } = hubOf(profile);
    await award(mock, {});
    const again = await award(mock, {});
    expect([again.status, expected.header && again.headers.get(expected.header[0]), await again.json()]).toEqual([expected.status, expected.header?.[1], expected.body]);
    expect((await sdk.awardPoints({ ...AWARD, ref: "r-2" }).withResponse()).duplicate).toBe(false);
    expect((await sdk.awardPoints({ ...AWARD, ref: "r-2" }).withResponse()).duplicate).toBe(true);
    expect(mock.ledger).toHaveLength(2);
  });

  it("indistinguishable: a repeat is answered as the fresh award was; the SDK reports no duplicate", async () => {
    const { mock, sdk } = hubOf({ award: { status: 201, duplicate: "indistinguishable" } });
    const fresh = await answer(await award(mock, {}));
    expect(fresh).toEqual({ status: 201, body: FIRST });
    expect(await answer(await award(mock, {}))).toEqual(fresh);
    for (let i = 0; i < 2; i++) expect((await sdk.awardPoints({ ...AWARD, ref: "r-2" }).withResponse()).duplicate).toBe(false);
    expect(mock.ledger).toHaveLength(2);
  });

  it("conflict: a ref re-sent with other parameters is refused with the declared status and code; the SDK throws a HubApiError with them", async () => {
    const { mock, sdk } = hubOf({ errors: "fastify", award: { duplicate: { status: 409, code: "ref_taken" }, conflict: { status: 422, code: "ref_params_differ" } } });
    await award(mock, {});
    expect(await answer(await award(mock, { amount: 6 }))).toEqual({
      status: 422,
      body: { statusCode: 422, code: "ref_params_differ", error: "Unprocessable Entity", message: "ref r-1 is already used by another award with different parameters." },
    });
    await sdk.awardPoints({ ...AWARD, ref: "r-2" });
    const error = await caught(() => sdk.awardPoints({ ...AWARD, ref: "r-2", amount: 6 }));
    expect(error).toBeInstanceOf(HubApiError);
    expect([(error as HubApiError).status, (error as HubApiError).code]).toEqual([422, "ref_params_differ"]);
    expect(mock.ledger.map(({ amount }) => amount)).toEqual([5, 5]);
  });

  it("a declared duplicate without a conflict: other parameters are the usual 409 ref_conflict", async () => {
    const { mock } = hubOf({ award: { duplicate: { status: 208 } } });
    await award(mock, {});
    expect(await answer(await award(mock, { wallet: "0xdef" }))).toEqual({ status: 409, body: { error: { code: "ref_conflict", message: "ref r-1 is already used by another award with different parameters." } } });
  });

  it.each<[MockDuplicateStyle, HubSignal]>([
    ["flag", { status: 200, field: { name: "duplicate", value: true } }],
    ["replay-header", { status: 200, header: { name: "Idempotent-Replayed", value: "true" } }],
    ["409", { status: 409, code: "duplicate_ref" }],
    ["208", { status: 208 }],
  ])("duplicateStyle %s is answered as the signal a profile declares for it", async (duplicateStyle, duplicate) => {
    const mock = mockWith({ duplicateStyle });
    const sdk = serverClient(mock.baseUrl, { profile: { version: 1, award: { duplicate } } });
    expect((await sdk.awardPoints(AWARD).withResponse()).duplicate).toBe(false);
    expect((await sdk.awardPoints(AWARD).withResponse()).duplicate).toBe(true);
  });
});

describe("the rate limit's announced reset", () => {
  const NOW = 1_795_860_000_000; // a window's start: its real end is NOW + 1000
  it.each<[NonNullable<HubProfile["rateLimit"]>, Record<string, string>]>([
    [{ headers: "ietf-draft7" }, { "ratelimit-policy": "3;w=1", ratelimit: "limit=3, remaining=2, reset=2" }],
    [{ headers: "ietf-legacy", reset: "epoch-ms" }, { "ratelimit-limit": "3", "ratelimit-remaining": "2", "ratelimit-reset": "1795860002000" }],
    [{ headers: "ietf-legacy" }, { "ratelimit-reset": "2" }],
    [{ headers: "x-ratelimit", reset: "seconds" }, { "x-ratelimit-limit": "3", "x-ratelimit-remaining": "2", "x-ratelimit-reset": "2" }],
    [{ headers: "x-ratelimit" }, { "x-ratelimit-reset": "1795860002" }],
  ])("%o, a second late: as sent, and read back by the SDK as the window's real end", async (rateLimit, expected) => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const { mock } = hubOf({ rateLimit: { ...rateLimit, resetLagSeconds: 1 } }, { rateLimit: 3 });
    const response = await get(mock, "/hub/alpha");
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, response.headers.get(name)]))).toEqual(expected);
    expect(rateLimitOf(response.headers, { localTime: (ms) => ms, resetLagMs: 1_000 }, NOW)).toMatchObject({ remaining: 2, resetAt: NOW + 1_000 });
  });

  it("resetLagSeconds moves the announced reset, not the window: a request at the window's real end is let in", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: NOW });
    const { mock } = hubOf({ rateLimit: { headers: "ietf-legacy", resetLagSeconds: 1 } }, { rateLimit: 1 });
    expect((await get(mock, "/hub/alpha")).headers.get("ratelimit-reset")).toBe("2");
    expect((await get(mock, "/hub/alpha")).status).toBe(429);
    vi.setSystemTime(NOW + 1_000);
    expect((await get(mock, "/hub/alpha")).status).toBe(200);
  });
});

describe("the leaderboard's rows and pages", () => {
  /** Every page from `first`, following what `next` reads off each answer: the bodies and links as sent, and the ranks the SDK's leaderboardRows reads. */
  const pagesOf = async (mock: { baseUrl: string }, profile: HubProfile, first: string, next: (body: any, link: string | null) => string | undefined) => {
    const sent: Array<{ body: unknown; link: string | null }> = [];
    const ranks: unknown[] = [];
    for (let url: string | undefined = `${mock.baseUrl}/hub/alpha/leaderboard${first}`; url !== undefined && sent.length < 5; ) {
      const response = await fetch(url, { headers: KEY });
      const page = { body: await response.json(), link: response.headers.get("link") };
      sent.push(page);
      ranks.push(...leaderboardRows(page.body as object, profile).map((row) => (row as { rank?: number }).rank));
      const said = next(page.body, page.link);
      url = said === undefined ? undefined : new URL(said, url).href;
    }
    return { sent, ranks };
  };
  const top = (count: number, from = 1) => Array.from({ length: count }, (_, i) => expect.objectContaining({ rank: from + i }));

  it.each<[string, NonNullable<HubProfile["leaderboard"]>, string, (body: any, link: string | null) => string | undefined, (baseUrl: string) => unknown[]]>([
    ["a bare array, one answer", { rows: "" }, "?limit=2", () => undefined, () => [{ body: top(2), link: null }]],
    ["rows under a key of the hub's own", { rows: "players" }, "?limit=2", () => undefined, () => [{ body: { hub: "alpha", limit: 2, total: 5, players: top(2) }, link: null }]],
    [
      "rows under a key, a next_cursor (null at the end)",
      { rows: "stakers", pages: "cursor" },
      "?limit=2",
      (body) => (body.next_cursor === null ? undefined : `?limit=2&cursor=${body.next_cursor}`),
      () => [
        { body: { hub: "alpha", limit: 2, total: 5, stakers: top(2), next_cursor: "2" }, link: null },
        { body: expect.objectContaining({ stakers: top(2, 3), next_cursor: "4" }), link: null },
        { body: expect.objectContaining({ stakers: top(1, 5), next_cursor: null }), link: null },
      ],
    ],
    [
      "a Relay connection, by first and after",
      { rows: "edges.node", pages: "relay" },
      "?first=2",
      (body) => (body.pageInfo.hasNextPage ? `?first=2&after=${body.pageInfo.endCursor}` : undefined),
      () => [
        { body: { edges: [{ node: top(1)[0], cursor: "1" }, { node: top(1, 2)[0], cursor: "2" }], pageInfo: { hasNextPage: true, endCursor: "2" } }, link: null },
        { body: expect.objectContaining({ pageInfo: { hasNextPage: true, endCursor: "4" } }), link: null },
        { body: { edges: [{ node: top(1, 5)[0], cursor: "5" }], pageInfo: { hasNextPage: false, endCursor: "5" } }, link: null },
      ],
    ],
    [
      "numbered pages from 1",
      { rows: "items", pages: "page" },
      "?limit=2",
      (body) => (body.page < body.pages ? `?limit=2&page=${body.page + 1}` : undefined),
      () => [
        { body: { hub: "alpha", limit: 2, total: 5, items: top(2), page: 1, pages: 3, per_page: 2 }, link: null },
        { body: expect.objectContaining({ items: top(2, 3), page: 2 }), link: null },
        { body: expect.objectContaining({ items: top(1, 5), page: 3 }), link: null },
      ],
    ],
    [
      "a bare array, the next page's absolute URL in a Link header",
      { rows: "", pages: "link" },
      "?limit=2",
      (_, link) => /^<([^>]+)>; rel="next"$/.exec(link ?? "")?.[1],
      (baseUrl) => [
        { body: top(2), link: `<${baseUrl}/hub/alpha/leaderboard?limit=2&page=2>; rel="next"` },
        { body: top(2, 3), link: `<${baseUrl}/hub/alpha/leaderboard?limit=2&page=3>; rel="next"` },
        { body: top(1, 5), link: null },
      ],
    ],
  ])("%s: as sent, and every row read by leaderboardRows and iterateLeaderboard with the profile", async (_, leaderboard, first, next, expected) => {
    const { mock } = hubOf({ leaderboard });
    const profile: HubProfile = { version: 1, leaderboard };
    const { sent, ranks } = await pagesOf(mock, profile, first, next);
    expect(sent).toEqual(expected(mock.baseUrl));
    const client = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", profile, retry: 0 });
    const iterated: unknown[] = [];
    for await (const row of iterateLeaderboard(client, { limit: 2 })) iterated.push(row.rank);
    expect([ranks, iterated]).toEqual(Array(2).fill(leaderboard.pages ? [1, 2, 3, 4, 5] : [1, 2]));
  });

  it("in the profile's envelope: HubClient with the profile unwraps it and leaderboardRows reads the page", async () => {
    const profile: HubProfile = { version: 1, envelope: "data", leaderboard: { rows: "entries", pages: "cursor" } };
    const mock = mockWith({ profile });
    expect(await (await get(mock, "/hub/alpha/leaderboard?limit=1")).json()).toMatchObject({ data: { entries: top(1), next_cursor: "1" }, meta: { request_id: "req_mock_000001" } });
    const board = await new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", profile, retry: 0 }).getLeaderboard({ limit: 2 });
    expect([leaderboardRows(board, profile).map((row) => row.rank), (board as { next_cursor: unknown }).next_cursor]).toEqual([[1, 2], "2"]);
  });

  it("a cursor or page the mock never gave is a 400 naming the parameter, not the first page again", async () => {
    const { mock } = hubOf({ leaderboard: { rows: "entries", pages: "page" } });
    expect(await answer(await get(mock, "/hub/alpha/leaderboard?page=0"))).toEqual({ status: 400, body: { error: { code: "invalid_page", message: 'page "0" is not a page of this leaderboard.' } } });
    const { mock: relay } = hubOf({ leaderboard: { rows: "edges.node", pages: "relay" } });
    expect(await answer(await get(relay, "/hub/alpha/leaderboard?after=abc"))).toMatchObject({ status: 400, body: { error: { code: "invalid_page" } } });
  });

  it("a bare array cannot carry a cursor or a page count: such a profile is refused, naming leaderboard.pages", () => {
    const error = caughtSync(() => createHubMock({ profile: { version: 1, leaderboard: { rows: "", pages: "cursor" } } }));
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path: ["leaderboard", "pages"] })]);
  });
});

describe("a bad profile", () => {
  it("createHubMock throws its HubValidationError naming each bad field", () => {
    const error = caughtSync(() => createHubMock({ profile: { version: 1, envelop: "data", award: { status: 99 } } as unknown as HubProfile }));
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues.map((issue) => issue.path)).toEqual(expect.arrayContaining([["envelop"], ["award", "status"]]));
  });
});

function caughtSync(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
