import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { StandardIssue, StandardSchemaV1 } from "../../src/core/types/standard-schema";
import { errorResponse, rateLimitHeaders } from "../../src/mock/responses";
import { schemaDrift } from "../../src/mock/schema-drift";
import { answer, award, get, mocksOn } from "../helpers/mock-fetch";

// Edge behaviour of the mock, asked with plain fetch (not through the SDK's reading of it).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const mockWith = mocksOn(server, "edge");

/** A Standard Schema that always fails with the given issues. */
const failing = (issues: StandardIssue[]): StandardSchemaV1 => ({
  "~standard": { version: 1, vendor: "edge-test", validate: () => ({ issues }) },
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

describe("errorResponse", () => {
  it("problem+json types default to the example hub's problems", async () => {
    const response = errorResponse("problem+json", 400, "bad_thing", "Bad.");
    expect(await response.json()).toEqual({ type: "https://hub.example.com/problems/bad-thing", title: "Bad Request", status: 400, detail: "Bad." });
  });
});

describe("rateLimitHeaders", () => {
  it("the reset is the whole seconds left, at least 1", () => {
    expect(rateLimitHeaders("ietf-legacy", 5, 2, 4_500, 0)).toEqual({ "RateLimit-Limit": "5", "RateLimit-Remaining": "3", "RateLimit-Reset": "5" });
    expect(rateLimitHeaders("ietf", 5, 7, 1_000, 2_000)).toEqual({ "RateLimit-Policy": '"default";q=5;w=1', RateLimit: '"default";r=0;t=1' });
  });
});

describe("schemaDrift messages", () => {
  it("names each issue by its dotted path, (root) without one, joined by '; '", async () => {
    const schema = failing([
      { message: "Expected number", path: ["entries", 0, { key: "staked" }] },
      { message: "Required", path: [] },
      { message: "Unknown" },
    ]);
    expect(await schemaDrift({ leaderboard: schema }, "leaderboard", {})).toBe(
      "public-hub-sdk/mock: the leaderboard body it serves does not fit schemas.leaderboard (entries.0.staked: Expected number; (root): Required; (root): Unknown): the mock's data and the declared shapes have drifted apart",
    );
  });

  it("no schema or a fitting body is no drift", async () => {
    const fits: StandardSchemaV1 = { "~standard": { version: 1, vendor: "edge-test", validate: (value) => ({ value }) } };
    expect(await schemaDrift({}, "hub", {})).toBeUndefined();
    expect(await schemaDrift({ hub: fits }, "hub", {})).toBeUndefined();
  });
});
