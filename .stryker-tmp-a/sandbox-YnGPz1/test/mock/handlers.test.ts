// @ts-nocheck
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getResponse } from "msw";
import { createHubMock } from "public-hub-sdk/mock";
import { useHubMock } from "../helpers/mock-server";
import { rawSign } from "../helpers/raw-sign";

const { mock, server } = useHubMock();
const WALLET = "0xabc";
const EARN_PATH = "/api/v1/hub/alpha/bits/earn";

/** A raw signed award, as any client would send it. */
function earn(body: unknown, init: { secret?: string; timestamp?: number; clientId?: string; signature?: string; base?: string } = {}) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const timestamp = String(init.timestamp ?? Math.floor(Date.now() / 1000));
  const signature = init.signature ?? rawSign(init.secret ?? "demo-secret-alpha", timestamp, "POST", EARN_PATH, text);
  return fetch(`${init.base ?? mock.baseUrl}/hub/alpha/bits/earn`, {
    method: "POST",
    headers: { "x-api-key": init.clientId ?? "pk_alpha_demo", "x-api-timestamp": timestamp, "x-api-signature": signature, "content-type": "application/json" },
    body: text,
  });
}

describe("mock: signed awards", () => {
  it("applies an award with the amount shape", async () => {
    const response = await earn({ wallet: WALLET, amount: 10, reason: "quest", ref: "r1" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, wallet: WALLET, awarded: 10, balance: 10, duplicate: false });
    expect(mock.ledger).toMatchObject([{ hub: "alpha", wallet: WALLET, amount: 10, reason: "quest", ref: "r1" }]);
  });

  it("applies an award with the kind shape, using the kind's points", async () => {
    const response = await earn({ wallet: WALLET, kind: "daily-login", ref: "k1" });
    expect(await response.json()).toMatchObject({ awarded: 5, balance: 5 });
  });

  it("the same ref awards once, whatever the body", async () => {
    await earn({ wallet: WALLET, amount: 10, ref: "dup" });
    const again = await earn({ wallet: WALLET, amount: 10, ref: "dup" });
    expect(await again.json()).toMatchObject({ duplicate: true, balance: 10 });
    await earn({ wallet: WALLET, amount: 99, ref: "dup" });
    expect(mock.ledger).toHaveLength(1);
    expect(mock.balanceOf("alpha", WALLET)).toBe(10);
  });

  it.each([
    ["a bad signature", { signature: "00".repeat(32) }, "invalid_signature"],
    ["the wrong secret", { secret: "not-the-secret" }, "invalid_signature"],
  ])("refuses %s with 401 and applies nothing", async (_name, init, code) => {
    const response = await earn({ wallet: WALLET, amount: 1, ref: "x" }, init);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { code, message: expect.any(String) } });
    expect(mock.ledger).toHaveLength(0);
  });

  describe("the ±300 s window, on a frozen clock", () => {
    const NOW_SECONDS = 1_800_000_000;
    beforeEach(() => vi.useFakeTimers({ toFake: ["Date"], now: NOW_SECONDS * 1000 }));
    afterEach(() => vi.useRealTimers());

    it.each([-301, 301])("refuses a timestamp %i s off with 401", async (offset) => {
      const response = await earn({ wallet: WALLET, amount: 1, ref: "x" }, { timestamp: NOW_SECONDS + offset });
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ error: { code: "timestamp_out_of_window", message: expect.any(String) } });
      expect(mock.ledger).toHaveLength(0);
    });

    it.each([-300, 300])("accepts a timestamp %i s off", async (offset) => {
      const response = await earn({ wallet: WALLET, amount: 1, ref: `edge${offset}` }, { timestamp: NOW_SECONDS + offset });
      expect(response.status).toBe(200);
    });
  });

  it.each([
    ["no ref", { wallet: WALLET, amount: 1 }],
    ["amount 0", { wallet: WALLET, amount: 0, ref: "a" }],
    ["amount as string", { wallet: WALLET, amount: "5", ref: "a" }],
    ["both amount and kind", { wallet: WALLET, amount: 5, kind: "daily-login", ref: "a" }],
    ["empty wallet", { wallet: "", amount: 5, ref: "a" }],
    ["not JSON", "wallet=1"],
  ])("answers 400 to a body with %s", async (_name, body) => {
    const response = await earn(body);
    expect(response.status).toBe(400);
    expect(mock.ledger).toHaveLength(0);
  });

  it("can refuse bad signatures with another status", async () => {
    const strict = createHubMock({ signatureFailureStatus: 403, baseUrl: "https://strict.example.com/api/v1" });
    server.use(...strict.handlers);
    const response = await earn({ wallet: WALLET, amount: 1, ref: "x" }, { signature: "ab", base: strict.baseUrl });
    expect(response.status).toBe(403);
  });

  it("a lost answer still applied the award", async () => {
    mock.loseNextWrites(1, 502);
    const response = await earn({ wallet: WALLET, amount: 3, ref: "lost" });
    expect(response.status).toBe(502);
    expect(mock.balanceOf("alpha", WALLET)).toBe(3);
  });

  it("follows its server clock", async () => {
    mock.setClockOffset(3_600_000);
    expect((await earn({ wallet: WALLET, amount: 1, ref: "c1" })).status).toBe(401);
    const inServerTime = Math.floor((Date.now() + 3_600_000) / 1000);
    const response = await earn({ wallet: WALLET, amount: 1, ref: "c2" }, { timestamp: inServerTime });
    expect(response.status).toBe(200);
    expect(Date.parse(response.headers.get("date")!)).toBeGreaterThan(Date.now() + 3_500_000);
  });
});

describe("mock: HTTP surface", () => {
  it("answers a CORS preflight for the signed headers", async () => {
    const response = await fetch(`${mock.baseUrl}/hub/alpha/bits/earn`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("x-api-signature");
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("exposes Date, Age, Retry-After, Location and x-request-id to browsers", async () => {
    const response = await fetch(mock.baseUrl);
    expect(response.headers.get("access-control-expose-headers")).toBe("Date, Age, Retry-After, Location, x-request-id");
    expect(response.headers.get("x-request-id")).toMatch(/^req_mock_/);
  });

  it("answers 401 without a key and 404 on an unknown path", async () => {
    expect((await fetch(`${mock.baseUrl}/hub/alpha`)).status).toBe(401);
    expect((await fetch(`${mock.baseUrl}/nothing/here`)).status).toBe(404);
  });

  it("clamps the leaderboard limit to its maximum", async () => {
    const response = await fetch(`${mock.baseUrl}/hub/alpha/leaderboard?limit=100000`, { headers: { "x-api-key": "pk_alpha_demo" } });
    expect(await response.json()).toMatchObject({ limit: 100, total: 5 });
  });

  it("reset() restores balances, ledger, requests and faults", async () => {
    await earn({ wallet: WALLET, amount: 2, ref: "r" });
    mock.rateLimitNext(3);
    mock.reset();
    expect(mock.ledger).toHaveLength(0);
    expect(mock.requests).toHaveLength(0);
    expect(mock.balanceOf("alpha", "0x1111111111111111111111111111111111111111")).toBe(250);
    expect((await fetch(mock.baseUrl)).status).toBe(200);
  });
});

describe("mock: routes at the base URL itself", () => {
  // Asked of a fresh mock's own handlers (msw's getResponse), so no other handler can answer instead.
  const answer = (url: string, method = "GET") => getResponse(createHubMock().handlers, new Request(url, { method }));

  it("a CORS preflight to the base URL with no trailing slash gets 204 and the CORS headers", async () => {
    const response = await answer(mock.baseUrl, "OPTIONS");
    expect(response?.status).toBe(204);
    expect(response?.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("a preflight outside the base URL (a sibling path) is not answered by the mock", async () => {
    expect(await answer(`${mock.baseUrl}x`, "OPTIONS")).toBeUndefined();
  });

  it("the discovery document is served with a trailing slash as without one", async () => {
    const withSlash = await answer(`${mock.baseUrl}/`);
    expect(withSlash?.status).toBe(200);
    expect(await withSlash!.json()).toEqual(await (await answer(mock.baseUrl))!.json());
  });
});
