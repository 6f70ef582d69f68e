import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createHubMock, demoHubs, type HubMockOptions } from "public-hub-sdk/mock";
import { rawSign } from "../helpers/raw-sign";
import { errorResponse, proxyPage, rateLimitHeaders } from "../../src/mock/responses";

// Several mocks with different settings, each on its own base URL, in one MSW server.
const mocks: ReturnType<typeof createHubMock>[] = [];
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mocks.length = 0;
  vi.useRealTimers();
});
afterAll(() => server.close());

let counter = 0;
const mockWith = (options: HubMockOptions = {}) => {
  counter += 1;
  const mock = createHubMock({ baseUrl: `https://mock${counter}.example.com/api/v1`, ...options });
  server.use(...mock.handlers);
  mocks.push(mock);
  return mock;
};

const KEY = { "x-api-key": "pk_alpha_demo" };
const get = (mock: { baseUrl: string }, path: string, headers: Record<string, string> = KEY) => fetch(`${mock.baseUrl}${path}`, { headers });

/** A raw award with every header under the test's control. */
function post(mock: { baseUrl: string }, body: string, headers: Record<string, string | undefined> = {}) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const all: Record<string, string | undefined> = {
    ...KEY,
    "content-type": "application/json",
    "x-api-timestamp": timestamp,
    "x-api-signature": rawSign("demo-secret-alpha", timestamp, "POST", new URL(mock.baseUrl).pathname + "/hub/alpha/bits/earn", body),
    ...headers,
  };
  const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== undefined));
  // A string body gets a text/plain content-type from fetch; bytes get none.
  return fetch(`${mock.baseUrl}/hub/alpha/bits/earn`, { method: "POST", headers: sent, body: new TextEncoder().encode(body) });
}

const errorOf = async (response: Response) => ({ status: response.status, body: (await response.json()) as unknown });

describe("reads", () => {
  it("discovery lists the endpoints at the base URL, with or without a slash", async () => {
    const mock = mockWith();
    for (const path of ["", "/"]) {
      const body = (await (await get(mock, path, {})).json()) as { baseUrl: string; endpoints: unknown[] };
      expect(body).toEqual({
        name: "Public Hub API",
        version: "v1",
        baseUrl: mock.baseUrl,
        endpoints: [
          { method: "GET", path: "/hub/{slug}", auth: "key" },
          { method: "GET", path: "/hub/{slug}/leaderboard", auth: "key", query: ["limit"] },
          { method: "GET", path: "/hub/{slug}/holder/{wallet}", auth: "key" },
          { method: "GET", path: "/hub/{slug}/stake-status", auth: "key", query: ["wallet"] },
          { method: "POST", path: "/hub/{slug}/bits/earn", auth: "key+signature" },
        ],
      });
    }
  });

  it("a trailing slash of baseUrl is dropped", () => {
    expect(createHubMock({ baseUrl: "https://x.test/api/v1//" }).baseUrl).toBe("https://x.test/api/v1");
    expect(createHubMock().baseUrl).toBe("https://hub.example.com/api/v1");
  });

  it("the hub answers its slug and config", async () => {
    const mock = mockWith();
    expect(await (await get(mock, "/hub/alpha")).json()).toEqual({ slug: "alpha", ...demoHubs().alpha!.config });
  });

  it("the leaderboard ranks by stake, highest first, whatever the fixture's order", async () => {
    const hubs = demoHubs();
    hubs.alpha!.stakers = [
      { wallet: "low", staked: 1 },
      { wallet: "high", staked: 300 },
      { wallet: "mid", staked: 20 },
    ];
    const mock = mockWith({ hubs });
    const body = await (await get(mock, "/hub/alpha/leaderboard")).json();
    expect(body).toEqual({
      hub: "alpha",
      limit: 10,
      total: 3,
      entries: [
        { rank: 1, wallet: "high", staked: 300 },
        { rank: 2, wallet: "mid", staked: 20 },
        { rank: 3, wallet: "low", staked: 1 },
      ],
    });
    const stake = await (await get(mock, "/hub/alpha/stake-status?wallet=mid")).json();
    expect(stake).toEqual({ hub: "alpha", wallet: "mid", staking: true, staked: 20, rank: 2 });
  });

  it.each([
    ["2", 2],
    ["1", 1],
    ["0", 10],
    ["-1", 10],
    ["1.5", 10],
    ["abc", 10],
    ["3x", 10],
    ["x3", 10],
    ["", 10],
    ["7", 5],
  ])("limit=%j gives %i entries at most (the default for anything but a positive integer)", async (limit, expected) => {
    const mock = mockWith({ leaderboardLimit: { default: 10, max: 5 } });
    const body = (await (await get(mock, `/hub/alpha/leaderboard?limit=${limit}`)).json()) as { limit: number; entries: unknown[] };
    expect(body.limit).toBe(expected);
    expect(body.entries).toHaveLength(Math.min(expected, 5));
  });

  it("the leaderboard can be a bare array of rows", async () => {
    const mock = mockWith({ leaderboardFormat: "array" });
    const rows = (await (await get(mock, "/hub/alpha/leaderboard?limit=2")).json()) as unknown[];
    expect(rows).toEqual([
      { rank: 1, wallet: "0x1111111111111111111111111111111111111111", staked: 52_000 },
      { rank: 2, wallet: "0x2222222222222222222222222222222222222222", staked: 31_500 },
    ]);
  });

  it("a holder answers its tokens and points; anyone else is no holder, with zeros", async () => {
    const mock = mockWith();
    const holder = "0x1111111111111111111111111111111111111111";
    expect(await (await get(mock, `/hub/alpha/holder/${holder}`)).json()).toEqual({ hub: "alpha", wallet: holder, holder: true, tokens: 120, bits: 250 });
    expect(await (await get(mock, "/hub/alpha/holder/0xnobody")).json()).toEqual({ hub: "alpha", wallet: "0xnobody", holder: false, tokens: 0, bits: 0 });
  });

  it("a hub without holders has none", async () => {
    const mock = mockWith({ keys: { pk_beta_demo: { secret: "s", hub: "beta" } } });
    const body = await (await get(mock, "/hub/beta/holder/0x1", { "x-api-key": "pk_beta_demo" })).json();
    expect(body).toMatchObject({ holder: false, tokens: 0 });
  });

  it("stake-status of a wallet that does not stake says false, 0 and no rank", async () => {
    const mock = mockWith();
    expect(await (await get(mock, "/hub/alpha/stake-status?wallet=0xnobody")).json()).toEqual({
      hub: "alpha",
      wallet: "0xnobody",
      staking: false,
      staked: 0,
      rank: null,
    });
  });

  it("stake-status without a wallet is 400 missing_wallet", async () => {
    const mock = mockWith();
    for (const path of ["/hub/alpha/stake-status", "/hub/alpha/stake-status?wallet="]) {
      expect(await errorOf(await get(mock, path))).toEqual({
        status: 400,
        body: { error: { code: "missing_wallet", message: "The wallet query parameter is required." } },
      });
    }
  });
});

describe("keys and hubs", () => {
  it.each([
    ["no key", {}, 401, "missing_api_key", "/hub/alpha", "The x-api-key header is required."],
    ["an unknown key", { "x-api-key": "pk_nope" }, 401, "invalid_api_key", "/hub/alpha", "Unknown API key."],
    ["an unknown hub", KEY, 404, "hub_not_found", "/hub/gamma", 'No hub "gamma".'],
    ["a key of another hub", KEY, 403, "forbidden", "/hub/beta", "This API key is scoped to another hub."],
    ["an unknown endpoint", KEY, 404, "not_found", "/hubs", "No such endpoint."],
  ])("%s: %i %s", async (_name, headers, status, code, path, message) => {
    const mock = mockWith();
    expect(await errorOf(await get(mock, path, headers))).toEqual({ status, body: { error: { code, message } } });
  });
});

describe("signed awards", () => {
  const body = JSON.stringify({ wallet: "0xabc", amount: 4, ref: "r1" });

  it.each([
    ["no timestamp", { "x-api-timestamp": undefined }, "invalid_timestamp"],
    ["a timestamp that is not digits", { "x-api-timestamp": "12a" }, "invalid_timestamp"],
    ["a timestamp with a sign", { "x-api-timestamp": "+1800000000" }, "invalid_timestamp"],
    ["no signature", { "x-api-signature": undefined }, "missing_signature"],
    ["a signature that is not lowercase hex", { "x-api-signature": "ZZ" }, "invalid_signature"],
  ])("refuses %s with the signature status and applies nothing", async (_name, headers, code) => {
    const mock = mockWith({ signatureFailureStatus: 400 });
    const answer = (await errorOf(await post(mock, body, headers))) as { status: number; body: { error: { code: string } } };
    expect(answer).toMatchObject({ status: 400, body: { error: { code } } });
    expect(mock.ledger).toHaveLength(0);
  });

  it("says why, for each refusal of a signature", async () => {
    const mock = mockWith();
    const messageOf = async (headers: Record<string, string | undefined>) => ((await (await post(mock, body, headers)).json()) as { error: { message: string } }).error.message;
    expect(await messageOf({ "x-api-timestamp": "soon" })).toBe("x-api-timestamp must be Unix seconds.");
    expect(await messageOf({ "x-api-signature": undefined })).toBe("x-api-signature is required.");
    expect(await messageOf({ "x-api-signature": "00" })).toBe("The signature does not match.");
    vi.useFakeTimers({ toFake: ["Date"], now: 1_800_000_000_000 });
    expect(await messageOf({ "x-api-timestamp": "1799999000" })).toBe("Timestamp 1799999000 is not within 300 s of server time 1800000000.");
  });

  it.each([
    ["no content-type", { "content-type": undefined }],
    ["text/plain", { "content-type": "text/plain" }],
    ["form data", { "content-type": "application/x-www-form-urlencoded" }],
  ])("a signed body with %s is 400 unsupported_content_type", async (_name, headers) => {
    const mock = mockWith();
    const response = await post(mock, body, headers);
    expect(await errorOf(response)).toEqual({ status: 400, body: { error: { code: "unsupported_content_type", message: "The body must be application/json." } } });
    expect(mock.ledger).toHaveLength(0);
  });

  it("application/json with a charset is fine", async () => {
    const mock = mockWith();
    expect((await post(mock, body, { "content-type": "application/json; charset=utf-8" })).status).toBe(200);
  });

  it("a signed body that is not JSON is 400 invalid_json", async () => {
    const mock = mockWith();
    expect(await errorOf(await post(mock, "{"))).toEqual({ status: 400, body: { error: { code: "invalid_json", message: "The body is not valid JSON." } } });
  });

  it("a signed invalid award is 400 invalid_award naming the problem", async () => {
    const mock = mockWith();
    expect(await errorOf(await post(mock, JSON.stringify({ wallet: "w", amount: 0, ref: "r" })))).toEqual({
      status: 400,
      body: { error: { code: "invalid_award", message: "amount must be a finite number greater than 0" } },
    });
  });

  it("a kind without configured points is worth 1; a configured kind its points", async () => {
    const mock = mockWith({ kindPoints: { bonus: 7 } });
    expect(await (await post(mock, JSON.stringify({ wallet: "w", kind: "other", ref: "k1" }))).json()).toMatchObject({ awarded: 1 });
    expect(await (await post(mock, JSON.stringify({ wallet: "w", kind: "bonus", ref: "k2" }))).json()).toMatchObject({ awarded: 7, balance: 8 });
    expect(mock.ledger).toMatchObject([{ kind: "other", amount: 1 }, { kind: "bonus", amount: 7 }]);
  });

  it("answers the award whole, and a replay the first answer with the current balance", async () => {
    const mock = mockWith();
    const first = await (await post(mock, body)).json();
    expect(first).toEqual({ ok: true, hub: "alpha", wallet: "0xabc", ref: "r1", awarded: 4, balance: 4, duplicate: false });
    await post(mock, JSON.stringify({ wallet: "0xabc", amount: 2, ref: "r2" }));
    expect(await (await post(mock, body)).json()).toEqual({ ...first, balance: 6, duplicate: true });
  });

  it("records every request with its headers and body", async () => {
    const mock = mockWith();
    await post(mock, body);
    expect(mock.requests).toEqual([
      { method: "POST", url: `${mock.baseUrl}/hub/alpha/bits/earn`, headers: expect.objectContaining({ "x-api-key": "pk_alpha_demo" }), body },
    ]);
  });

  it("a lost answer is a network error by default, and the award was applied", async () => {
    const mock = mockWith();
    mock.loseNextWrites(1);
    await expect(post(mock, body)).rejects.toThrow();
    expect(mock.balanceOf("alpha", "0xabc")).toBe(4);
    expect(mock.ledger).toHaveLength(1);
  });

  it("a proxy's page is nginx's, titled by its status", () => {
    expect(proxyPage(502)).toBe(
      "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n",
    );
  });

  it("a lost answer can be a proxy's page", async () => {
    const mock = mockWith();
    mock.loseNextWrites(1, 504);
    const response = await post(mock, body);
    expect(response.status).toBe(504);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("<title>504 Error</title>");
  });
});

describe("error formats", () => {
  it.each([
    ["nested", { error: { code: "missing_api_key", message: "The x-api-key header is required." } }],
    ["flat", { code: "missing_api_key", message: "The x-api-key header is required." }],
    ["error-string", { error: "missing_api_key", message: "The x-api-key header is required." }],
    ["problem", { type: "about:blank", title: "Unauthorized", status: 401, detail: "The x-api-key header is required." }],
  ] as const)("%s", async (errorFormat, expected) => {
    const mock = mockWith({ errorFormat });
    const response = await get(mock, "/hub/alpha", {});
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual(expected);
    if (errorFormat === "problem") expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("text", async () => {
    const response = await get(mockWith({ errorFormat: "text" }), "/hub/alpha", {});
    expect(await response.text()).toBe("The x-api-key header is required.");
  });

  it("html, titled by status; an untitled status is Error", async () => {
    const mock = mockWith({ errorFormat: "html" });
    const response = await get(mock, "/hub/alpha", {});
    expect(await response.text()).toBe("<!doctype html>\n<html lang=en>\n<title>401 Unauthorized</title>\n<h1>Unauthorized</h1>\n<p>The x-api-key header is required.</p>\n");
    const forbidden = await get(mock, "/hub/beta");
    expect(await forbidden.text()).toContain("<title>403 Forbidden</title>");
  });
});

describe("faults and headers", () => {
  it("rateLimitNext answers 429 with Retry-After in seconds (1 by default), then normally", async () => {
    const mock = mockWith();
    mock.rateLimitNext(1);
    mock.rateLimitNext(1, 9);
    const first = await get(mock, "/hub/alpha");
    expect(first.status).toBe(429);
    expect(first.headers.get("retry-after")).toBe("1");
    expect(await first.json()).toEqual({ error: { code: "rate_limited", message: "Too many requests; slow down." } });
    expect((await get(mock, "/hub/alpha")).headers.get("retry-after")).toBe("9");
    expect((await get(mock, "/hub/alpha")).status).toBe(200);
  });

  it("Retry-After can be an HTTP date in server time", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-22T10:00:00Z") });
    const mock = mockWith({ retryAfterFormat: "http-date", clockOffsetMs: 60_000 });
    mock.rateLimitNext(1, 5);
    expect((await get(mock, "/hub/alpha")).headers.get("retry-after")).toBe("Sun, 22 Nov 2026 10:01:05 GMT");
  });

  it("failNext answers a proxy's 503 page by default, or the canned answer", async () => {
    const mock = mockWith();
    mock.failNext(1);
    mock.failNext(1, { status: 502, body: "bad", contentType: "text/plain", headers: { "x-extra": "1" } });
    const page = await get(mock, "/hub/alpha");
    expect(page.status).toBe(503);
    expect(page.headers.get("content-type")).toBe("text/html");
    expect(await page.text()).toContain("<center><h1>503 Service Unavailable</h1></center>");
    const canned = await get(mock, "/hub/alpha");
    expect(canned.status).toBe(502);
    expect(canned.headers.get("content-type")).toBe("text/plain");
    expect(canned.headers.get("x-extra")).toBe("1");
    expect(await canned.text()).toBe("bad");
  });

  it("redirectNext answers a 307 to the location by default", async () => {
    const mock = mockWith();
    mock.redirectNext(1, "https://elsewhere.test/x");
    mock.redirectNext(1, "https://elsewhere.test/y", 301);
    const first = await fetch(`${mock.baseUrl}/hub/alpha`, { headers: KEY, redirect: "manual" });
    expect(first.status).toBe(307);
    expect(first.headers.get("location")).toBe("https://elsewhere.test/x");
    expect(first.headers.get("content-type")).toBe("text/plain");
    expect(await first.text()).toBe("");
    expect((await fetch(`${mock.baseUrl}/hub/alpha`, { headers: KEY, redirect: "manual" })).status).toBe(301);
  });

  it("every answer has Date (server time), x-request-id counting up, and CORS", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-22T10:00:00Z") });
    const mock = mockWith({ clockOffsetMs: -3_000 });
    const first = await get(mock, "/hub/alpha");
    const second = await get(mock, "/hub/nowhere");
    expect(first.headers.get("date")).toBe("Sun, 22 Nov 2026 09:59:57 GMT");
    expect(first.headers.get("age")).toBeNull();
    expect([first, second].map((r) => r.headers.get("x-request-id"))).toEqual(["req_mock_000001", "req_mock_000002"]);
    expect(second.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(second.headers.get("access-control-max-age")).toBe("600");
    mock.reset();
    expect((await get(mock, "/hub/alpha")).headers.get("x-request-id")).toBe("req_mock_000001");
  });

  it("serveCachedNext sends Age and a Date that old, then fresh answers again", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-22T10:00:00Z") });
    const mock = mockWith();
    mock.serveCachedNext(1, 7_200);
    const cached = await get(mock, "/hub/alpha");
    expect(cached.headers.get("age")).toBe("7200");
    expect(cached.headers.get("date")).toBe("Sun, 22 Nov 2026 08:00:00 GMT");
    expect(await cached.json()).toMatchObject({ slug: "alpha" });
    const fresh = await get(mock, "/hub/alpha");
    expect(fresh.headers.get("age")).toBeNull();
    expect(fresh.headers.get("date")).toBe("Sun, 22 Nov 2026 10:00:00 GMT");
  });

  it("sendDateHeader: false leaves Date out", async () => {
    const response = await get(mockWith({ sendDateHeader: false }), "/hub/alpha");
    expect(response.status).toBe(200);
    expect(response.headers.get("date")).toBeNull();
  });

  it("reset() brings back the starting clock and clears every fault", async () => {
    const mock = mockWith({ clockOffsetMs: 1_000 });
    mock.setClockOffset(99_000);
    mock.loseNextWrites(1);
    mock.failNext(1);
    mock.serveCachedNext(1, 5);
    mock.reset();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-22T10:00:00Z") });
    const response = await get(mock, "/hub/alpha");
    expect(response.status).toBe(200);
    expect(response.headers.get("age")).toBeNull();
    expect(response.headers.get("date")).toBe("Sun, 22 Nov 2026 10:00:01 GMT");
    expect((await post(mock, JSON.stringify({ wallet: "w", amount: 1, ref: "after-reset" }))).status).toBe(200);
  });
});

describe("error answers of every status", () => {
  it("a status without a title of its own is called Error", async () => {
    const response = errorResponse("problem", 418, "teapot", "short and stout");
    expect(await response.json()).toEqual({ type: "about:blank", title: "Error", status: 418, detail: "short and stout" });
    expect(await errorResponse("html", 418, "teapot", "m").text()).toContain("<title>418 Error</title>");
  });
});

describe("mock details", () => {
  it("an award by kind gets the kind's points: daily-login is worth 5 by default", async () => {
    const mock = mockWith();
    const response = await post(mock, JSON.stringify({ wallet: "0xk", kind: "daily-login", ref: "k1" }));
    expect(response.status).toBe(200);
    expect(mock.balanceOf("alpha", "0xk")).toBe(5);
  });

  it("a signature of odd length is refused as invalid, not a crash", async () => {
    const mock = mockWith();
    const answer = (await errorOf(await post(mock, JSON.stringify({ wallet: "0xabc", amount: 1, ref: "o1" }), { "x-api-signature": "a".repeat(63) }))) as {
      status: number;
      body: { error: { code: string } };
    };
    expect(answer).toMatchObject({ status: 401, body: { error: { code: "invalid_signature" } } });
  });

  it("a proxy's page for a status without a title says Error", () => {
    expect(proxyPage(599)).toContain("<title>599 Error</title>");
    expect(proxyPage(599)).toContain("<h1>599 Error</h1>");
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
