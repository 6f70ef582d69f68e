import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { failing } from "../helpers/failing-schema";
import { answer, award, get, mocksOn } from "../helpers/mock-fetch";

// The mock speaking a hub that is not its default, checked with plain fetch (not the SDK's reading of it).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

const mockWith = mocksOn(server, "dialect");

describe("the hub's shapes", () => {
  it("envelope and requestIdHeader: every success in { data, meta }, the id under the hub's name, exposed to browsers", async () => {
    const mock = mockWith({ envelope: "data", requestIdHeader: "Request-Id" });
    const response = await get(mock, "/hub/alpha/holder/0xabc");
    expect(await response.json()).toEqual({ data: { hub: "alpha", wallet: "0xabc", holder: false, tokens: 0, bits: 0 }, meta: { request_id: "req_mock_000001" } });
    expect([response.headers.get("request-id"), response.headers.get("x-request-id")]).toEqual(["req_mock_000001", null]);
    expect(response.headers.get("access-control-expose-headers")).toBe("Date, Age, Retry-After, Location, Request-Id");
    expect(await answer(await fetch(mock.baseUrl))).toMatchObject({ body: { data: { version: "v1" } } });
    expect(await answer(await get(mock, "/hub/nowhere"))).toEqual({ status: 404, body: { error: { code: "hub_not_found", message: 'No hub "nowhere".' } } }); // errors are not wrapped
  });

  it("responses: a fixture served as it is, a function given the mock's state and its own answer; the schemas check them", async () => {
    const schemas = {
      holder: z.object({ address: z.string(), points: z.number() }),
      award: z.object({ id: z.string(), balance: z.number(), replay: z.boolean() }),
      leaderboard: z.object({ rows: z.array(z.object({ wallet: z.string() })) }),
    };
    const mock = mockWith({
      schemas,
      envelope: "data",
      responses: {
        leaderboard: { rows: [{ wallet: "0xfixed" }] },
        holder: ({ url, balanceOf }) => ({ address: url.pathname.split("/").pop(), points: balanceOf(url.pathname.split("/").pop()!) }),
        award: ({ award, duplicate, ledger, balanceOf }) => ({ id: `awd_${ledger.indexOf(award!) + 1}`, balance: balanceOf(award!.wallet), replay: duplicate }),
        stakeStatus: ({ body }) => ({ ...(body as object), extra: 1 }),
      },
    });
    expect(await answer(await get(mock, "/hub/alpha/leaderboard"))).toMatchObject({ status: 200, body: { data: { rows: [{ wallet: "0xfixed" }] } } });
    expect(await answer(await award(mock, {}))).toMatchObject({ status: 200, body: { data: { id: "awd_1", balance: 5, replay: false } } });
    expect(await answer(await award(mock, {}))).toMatchObject({ body: { data: { id: "awd_1", balance: 5, replay: true } } });
    expect(await answer(await award(mock, { ref: "r-2", wallet: "0xdef" }))).toMatchObject({ body: { data: { id: "awd_2" } } });
    expect(await answer(await get(mock, "/hub/alpha/holder/0xabc"))).toMatchObject({ status: 200, body: { data: { address: "0xabc", points: 5 } } });
    expect(await answer(await get(mock, "/hub/alpha/stake-status?wallet=0xabc"))).toMatchObject({ status: 200, body: { data: { staked: 0, extra: 1 } } });
    // A shape the schemas do not declare is still a drift.
    const drifted = mockWith({ schemas, responses: { holder: { address: "0xabc" } } });
    expect(await answer(await get(drifted, "/hub/alpha/holder/0xabc"))).toMatchObject({ status: 501, body: { error: { code: "mock_schema_drift" } } });
  });
});

describe("duplicate styles", () => {
  it.each([
    ["replay-header", 200, { "idempotent-replayed": "true" }],
    ["208", 208, { "idempotent-replayed": null }],
  ] as const)("%s: the first answer again, no flag in the body", async (duplicateStyle, status, headers) => {
    const mock = mockWith({ duplicateStyle });
    const first = await answer(await award(mock, {}));
    expect(first).toEqual({ status: 200, body: { ok: true, hub: "alpha", wallet: "0xabc", ref: "r-1", awarded: 5, balance: 5 } });
    const again = await award(mock, {});
    expect(Object.fromEntries(Object.keys(headers).map((name) => [name, again.headers.get(name)]))).toEqual(headers);
    expect(await answer(again)).toEqual({ ...first, status });
    expect(mock.ledger).toHaveLength(1);
  });

  it("409 in the error format: a duplicate-ref problem; a ref with other parameters a ref-conflict; a lost answer's retry meets the 409", async () => {
    const mock = mockWith({ duplicateStyle: "409", errorFormat: "problem+json" });
    mock.loseNextWrites(1);
    await expect(award(mock, {})).rejects.toThrow();
    const again = await award(mock, {});
    expect(again.headers.get("content-type")).toBe("application/problem+json");
    expect(await answer(again)).toEqual({
      status: 409,
      body: { type: `${new URL(mock.baseUrl).origin}/problems/duplicate-ref`, title: "Conflict", status: 409, detail: "ref r-1 already exists: the award was applied once." },
    });
    expect(await answer(await award(mock, { amount: 6 }))).toMatchObject({ status: 409, body: { type: `${new URL(mock.baseUrl).origin}/problems/ref-conflict` } });
    expect([mock.ledger.length, mock.balanceOf("alpha", "0xabc")]).toEqual([1, 5]);
  });

  it("flag (the default) keeps today's answer: duplicate: true, whatever the parameters", async () => {
    const mock = mockWith();
    expect(await answer(await award(mock, {}))).toMatchObject({ body: { duplicate: false } });
    expect(await answer(await award(mock, { amount: 6 }))).toMatchObject({ status: 200, body: { duplicate: true, balance: 5 } });
  });
});

describe("error formats with fields", () => {
  it.each([
    ["problem+json", { type: "https://fields.example.com/problems/invalid-award", title: "Bad Request", status: 400, detail: "amount must be a finite number greater than 0", errors: [{ pointer: "#/amount", detail: "must be a finite number greater than 0" }] }],
    ["error-object", { error: { type: "invalid_request_error", code: "invalid_award", message: "amount must be a finite number greater than 0", param: "amount" } }],
    ["errors-array", { errors: [{ code: "invalid_award", detail: "must be a finite number greater than 0", source: { pointer: "/amount" } }] }],
  ] as const)("%s names the bad field", async (errorFormat, expected) => {
    const mock = mockWith({ errorFormat, baseUrl: `https://fields.example.com/${errorFormat.replace(/\W/g, "-")}/api/v1` }); // problem types name the origin
    expect(await answer(await award(mock, { amount: 0 }))).toEqual({ status: 400, body: expected });
  });

  it("errors-array without a field; error-object's type for a refused key", async () => {
    expect(await answer(await fetch(`${mockWith({ errorFormat: "errors-array" }).baseUrl}/hub/alpha`))).toEqual({ status: 401, body: { errors: [{ code: "missing_api_key", detail: "The x-api-key header is required." }] } });
    expect(await answer(await fetch(`${mockWith({ errorFormat: "error-object" }).baseUrl}/hub/alpha`))).toMatchObject({ body: { error: { type: "authentication_error" } } });
  });
});

describe("an announced rate limit the mock enforces", () => {
  it.each([
    ["ietf", { "ratelimit-policy": '"default";q=3;w=1', ratelimit: '"default";r=2;t=1' }, { ratelimit: '"default";r=0;t=1' }],
    ["ietf-legacy", { "ratelimit-limit": "3", "ratelimit-remaining": "2", "ratelimit-reset": "1" }, { "ratelimit-remaining": "0" }],
    ["x-ratelimit", { "x-ratelimit-limit": "3", "x-ratelimit-remaining": "2", "x-ratelimit-reset": "1795860001" }, { "x-ratelimit-remaining": "0" }],
    ["none", { ratelimit: null, "x-ratelimit-limit": null, "ratelimit-limit": null }, { ratelimit: null }],
  ] as const)("%s: 3 a second, then 429 with Retry-After, then the next second", async (rateLimitHeaders, first, limited) => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_795_860_000_400 });
    const mock = mockWith({ rateLimit: 3, rateLimitHeaders });
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) answers.push(await get(mock, "/hub/alpha"));
    expect(answers.map((response) => response.status)).toEqual([200, 200, 200, 429]);
    const pick = (response: Response, names: object) => Object.fromEntries(Object.keys(names).map((name) => [name, response.headers.get(name)]));
    expect(pick(answers[0]!, first)).toEqual(first);
    expect(pick(answers[3]!, limited)).toEqual(limited);
    expect(answers[3]!.headers.get("retry-after")).toBe("1");
    vi.setSystemTime(1_795_860_001_000);
    expect((await get(mock, "/hub/alpha")).status).toBe(200);
  });

  it("the default style is ietf, and the fields are exposed to browsers", async () => {
    const response = await get(mockWith({ rateLimit: 20 }), "/hub/alpha");
    expect(response.headers.get("ratelimit-policy")).toBe('"default";q=20;w=1');
    expect(response.headers.get("access-control-expose-headers")).toBe("Date, Age, Retry-After, Location, x-request-id, RateLimit-Policy, RateLimit");
  });
});

describe("exposed headers", () => {
  it("replay-header duplicates expose Idempotent-Replayed to browsers", async () => {
    const mock = mockWith({ duplicateStyle: "replay-header" });
    const response = await fetch(mock.baseUrl);
    expect(response.headers.get("access-control-expose-headers")).toBe("Date, Age, Retry-After, Location, x-request-id, Idempotent-Replayed");
  });

  it("other duplicate styles expose no Idempotent-Replayed", async () => {
    const mock = mockWith({ duplicateStyle: "208" });
    const response = await fetch(mock.baseUrl);
    expect(response.headers.get("access-control-expose-headers")).toBe("Date, Age, Retry-After, Location, x-request-id");
  });
});

describe("a lost answer under a rate limit", () => {
  it("a network error stays a network error (no rate-limit fields set on it), and the award was applied", async () => {
    const mock = mockWith({ rateLimit: 10 });
    mock.loseNextWrites(1);
    await expect(award(mock, {})).rejects.toThrow(TypeError);
    expect(mock.ledger).toHaveLength(1);
    expect(mock.balanceOf("alpha", "0xabc")).toBe(5);
  });
});

describe("the envelope's request id and the answer context, on every read", () => {
  it("discovery: wrapped with its request id; a custom discovery answer is served and gets the url and no hub", async () => {
    const plain = mockWith({ envelope: "data" });
    const response = await answer(await fetch(plain.baseUrl));
    expect(response.body).toMatchObject({ meta: { request_id: "req_mock_000001" } });
    expect(Object.keys((response.body as { data: object }).data)).toEqual(["name", "version", "baseUrl", "endpoints"]);

    const custom = mockWith({ responses: { discovery: ({ url, hub, body }) => ({ path: url.pathname, hub: hub ?? "none", version: (body as { version: string }).version }) } });
    expect(await answer(await fetch(`${custom.baseUrl}/`))).toEqual({ status: 200, body: { path: "/api/v1/", hub: "none", version: "v1" } });
  });

  it("discovery: the discovery schema checks it", async () => {
    const mock = mockWith({ schemas: { discovery: failing([{ message: "nope", path: ["name"] }]) } });
    expect(await answer(await fetch(mock.baseUrl))).toEqual({
      status: 501,
      body: { error: { code: "mock_schema_drift", message: "public-hub-sdk/mock: the discovery body it serves does not fit schemas.discovery (name: nope): the mock's data and the declared shapes have drifted apart" } },
    });
  });

  it("leaderboard: wrapped with its request id; a custom answer gets the hub and url", async () => {
    const mock = mockWith({ envelope: "data", leaderboardLimit: { default: 1, max: 5 } });
    expect(await answer(await get(mock, "/hub/alpha/leaderboard"))).toEqual({
      status: 200,
      body: { data: { hub: "alpha", limit: 1, total: 5, entries: [{ rank: 1, wallet: "0x1111111111111111111111111111111111111111", staked: 52_000 }] }, meta: { request_id: "req_mock_000001" } },
    });
    const custom = mockWith({ responses: { leaderboard: ({ hub, url }) => ({ hub, limit: url.searchParams.get("limit") }) } });
    expect(await answer(await get(custom, "/hub/alpha/leaderboard?limit=2"))).toEqual({ status: 200, body: { hub: "alpha", limit: "2" } });
  });

  it("stake status: wrapped with its request id; a custom answer gets the hub and url", async () => {
    const mock = mockWith({ envelope: "data" });
    expect(await answer(await get(mock, "/hub/alpha/stake-status?wallet=0x2222222222222222222222222222222222222222"))).toEqual({
      status: 200,
      body: { data: { hub: "alpha", wallet: "0x2222222222222222222222222222222222222222", staking: true, staked: 31_500, rank: 2 }, meta: { request_id: "req_mock_000001" } },
    });
    const custom = mockWith({ responses: { stakeStatus: ({ hub, url }) => ({ hub, wallet: url.searchParams.get("wallet") }) } });
    expect(await answer(await get(custom, "/hub/alpha/stake-status?wallet=0xq"))).toEqual({ status: 200, body: { hub: "alpha", wallet: "0xq" } });
  });
});

describe("field errors", () => {
  it("a missing stake-status wallet names the wallet field", async () => {
    const mock = mockWith({ errorFormat: "problem+json" });
    expect(await answer(await get(mock, "/hub/alpha/stake-status"))).toEqual({
      status: 400,
      body: {
        type: `${new URL(mock.baseUrl).origin}/problems/missing-wallet`,
        title: "Bad Request",
        status: 400,
        detail: "The wallet query parameter is required.",
        errors: [{ pointer: "#/wallet", detail: "is required" }],
      },
    });
  });

  it("an award problem that is about no one field names no field", async () => {
    const mock = mockWith({ errorFormat: "problem+json" });
    expect(await answer(await award(mock, { kind: "daily-login" }))).toEqual({
      status: 400,
      body: {
        type: `${new URL(mock.baseUrl).origin}/problems/invalid-award`,
        title: "Bad Request",
        status: 400,
        detail: "send either amount or kind, not both",
      },
    });
  });

  it("an award with both a field problem and a general one names only the field", async () => {
    const mock = mockWith({ errorFormat: "errors-array" });
    expect(await answer(await award(mock, { kind: "daily-login", wallet: "" }))).toEqual({
      status: 400,
      body: { errors: [{ code: "invalid_award", detail: "must be a non-empty string", source: { pointer: "/wallet" } }] },
    });
  });

  it("error-object types: 429 is a rate_limit_error, 403 and 401 authentication_error", async () => {
    const mock = mockWith({ errorFormat: "error-object" });
    mock.rateLimitNext(1);
    expect(await answer(await get(mock, "/hub/alpha"))).toEqual({
      status: 429,
      body: { error: { type: "rate_limit_error", code: "rate_limited", message: "Too many requests; slow down." } },
    });
    expect(await answer(await get(mock, "/hub/beta"))).toEqual({
      status: 403,
      body: { error: { type: "authentication_error", code: "forbidden", message: "This API key is scoped to another hub." } },
    });
    expect(await answer(await get(mock, "/hub/alpha", "pk_nobody"))).toEqual({
      status: 401,
      body: { error: { type: "authentication_error", code: "invalid_api_key", message: "Unknown API key." } },
    });
  });
});

describe("a ref used again", () => {
  it("with another wallet is a conflict, with the ref in the message", async () => {
    const mock = mockWith({ duplicateStyle: "208" });
    await award(mock, {});
    expect(await answer(await award(mock, { wallet: "0xdef" }))).toEqual({
      status: 409,
      body: { error: { code: "ref_conflict", message: "ref r-1 is already used by another award with different parameters." } },
    });
    expect(mock.ledger).toHaveLength(1);
  });

  it("with another reason is a conflict", async () => {
    const mock = mockWith({ duplicateStyle: "208" });
    await award(mock, {});
    expect((await award(mock, { reason: "other" })).status).toBe(409);
  });

  it("with another kind of the same points is a conflict", async () => {
    const mock = mockWith({ duplicateStyle: "208", kindPoints: { a: 5, b: 5 } });
    const kindAward = (kind: string) => award(mock, { amount: undefined, reason: undefined, kind, ref: "k-1" });
    expect((await kindAward("a")).status).toBe(200);
    expect((await kindAward("a")).status).toBe(208);
    expect(await answer(await kindAward("b"))).toEqual({
      status: 409,
      body: { error: { code: "ref_conflict", message: "ref k-1 is already used by another award with different parameters." } },
    });
  });

  it.each([
    ["replay-header", 200],
    ["208", 208],
  ] as const)("%s: the award answer of `responses` is served for the duplicate too", async (duplicateStyle, status) => {
    const mock = mockWith({ duplicateStyle, responses: { award: ({ duplicate }) => ({ replay: duplicate }) } });
    expect(await answer(await award(mock, {}))).toEqual({ status: 200, body: { replay: false } });
    expect(await answer(await award(mock, {}))).toEqual({ status, body: { replay: true } });
  });
});
