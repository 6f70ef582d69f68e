import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient, HubConnectionError, HubRedirectError, HubResponseError, HubTimeoutError, ServerError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { innermostMessage, redirectError } from "../../../src/core/request";
import { until } from "../../helpers/real-io";
import { timeless } from "../../helpers/timeless";

/** A client whose `fetch` answers (or fails) as told: no network, no mock. */
const clientWith = (fetch: typeof globalThis.fetch) =>
  new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, logLevel: "off", fetch });

describe("errors without the usual parts", () => {
  it("a failure with neither code nor message says there was no HTTP response", async () => {
    const error = await clientWith(() => Promise.reject(new Error(""))).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(timeless((error as Error).message)).toBe("Connection to https://h.test failed: no HTTP response. 1 attempt, T in all.");
  });

  it("an answer without a status text shows the status alone", async () => {
    const error = await clientWith(async () => new Response("", { status: 500 })).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toBe("500: (empty body)");
  });

  it("an answer with a status text and a code shows both", async () => {
    const body = JSON.stringify({ code: "boom", message: "it broke" });
    const error = await clientWith(async () => new Response(body, { status: 503, statusText: "Service Unavailable" })).getHub().catch((e: unknown) => e);
    expect((error as Error).message).toBe("503 Service Unavailable [boom]: it broke");
  });

  it("a redirect whose Location is not a URL keeps it as sent", () => {
    const response = new Response(null, { status: 302, headers: { location: "http://[broken" } });
    const error = redirectError(response, "https://h.test/api/v1/hub/alpha", false, "");
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(error.location).toBe("http://[broken");
    expect(redirectError(new Response(null, { status: 302, headers: { location: "/x" } }), "https://h.test/a/b", false, "").location).toBe("https://h.test/x");
    expect(redirectError(new Response(null, { status: 302 }), "https://h.test/a", false, "").location).toBeUndefined();
  });
});

describe("what a failed call says about a write", () => {
  afterEach(() => vi.useRealTimers());
  const never = (_url: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
  const serverWith = (fetch: typeof globalThis.fetch) =>
    new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", retry: 0, logLevel: "off", timeout: 40, fetch });
  const award = { wallet: "w", amount: 1, ref: "r" };

  it("a write cut by its timeout may have been applied, and says so", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const sent = vi.fn(never);
    const pending = serverWith(sent).awardPoints(award).catch((e: unknown) => e);
    await until(() => sent.mock.calls.length > 0); // signed on WebCrypto's threads, then sent
    await vi.advanceTimersByTimeAsync(50);
    const error = (await pending) as HubTimeoutError;
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect(error.mayHaveBeenApplied).toBe(true);
    expect(timeless(error.message)).toBe("Request to https://h.test timed out after 40 ms. 1 attempt, cut at 40 ms, T in all. No answer has come from this hub yet: if it serves plain HTTP, its base URL is http://. It may have been applied: retrying with the same ref is safe.");
  });

  it("a cut attempt may have been applied even when the fetch's own error says it was never sent", async () => {
    // Some fetches report the abort as their last connection error: the cut happened at an unknown point.
    const refusedOnAbort = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" }))),
      );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const sent = vi.fn(refusedOnAbort);
    const timedOut = serverWith(sent).awardPoints(award).catch((e: unknown) => e);
    await until(() => sent.mock.calls.length > 0);
    await vi.advanceTimersByTimeAsync(50);
    expect(await timedOut).toMatchObject({ name: "HubTimeoutError", mayHaveBeenApplied: true });
    vi.useRealTimers();

    const controller = new AbortController();
    const aborted = serverWith((url, init) => {
      queueMicrotask(() => controller.abort());
      return refusedOnAbort(url, init);
    })
      .awardPoints(award, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(await aborted).toMatchObject({ name: "HubAbortError", mayHaveBeenApplied: true });
  });

  it("a read cut by its timeout was not applied", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const pending = clientWith(never).getHub({ timeout: 40 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    const error = (await pending) as HubTimeoutError;
    expect(error).toMatchObject({ name: "HubTimeoutError", mayHaveBeenApplied: false, timeout: 40 });
    expect(timeless(error.message)).toBe("Request to https://h.test timed out after 40 ms. 1 attempt, cut at 40 ms, T in all.");
  });

  it("a write aborted while in flight may have been applied; aborted before it started, it was not", async () => {
    const controller = new AbortController();
    const started = serverWith((url, init) => {
      queueMicrotask(() => controller.abort(new Error("user left")));
      return never(url, init);
    })
      .awardPoints(award, { signal: controller.signal })
      .catch((e: unknown) => e);
    const inFlight = (await started) as HubAbortError;
    expect(inFlight).toBeInstanceOf(HubAbortError);
    expect(inFlight.mayHaveBeenApplied).toBe(true);
    expect(inFlight.cause).toEqual(new Error("user left"));
    expect(inFlight.message).toBe("Request aborted by the caller. It may have been applied: retrying with the same ref is safe.");

    const early = new AbortController();
    early.abort();
    const before = (await serverWith(never).awardPoints(award, { signal: early.signal }).catch((e: unknown) => e)) as HubAbortError;
    expect(before).toBeInstanceOf(HubAbortError);
    expect(before.mayHaveBeenApplied).toBe(false);
    expect(before.message).toBe("Request aborted by the caller.");
  });

  it("a read aborted while in flight is a HubAbortError, not applied", async () => {
    const controller = new AbortController();
    const call = clientWith((url, init) => {
      queueMicrotask(() => controller.abort());
      return never(url, init);
    }).getHub({ signal: controller.signal });
    await expect(call).rejects.toMatchObject({ name: "HubAbortError", mayHaveBeenApplied: false, message: "Request aborted by the caller." });
  });

  it("an error thrown while signing reaches the caller unchanged, nothing is sent, and its slot in the gate is freed", async () => {
    const failure = new Error("crypto unavailable");
    vi.spyOn(globalThis.crypto.subtle, "sign").mockRejectedValue(failure);
    let sent = 0;
    const server = new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", maxConcurrency: 1, fetch: async () => (sent++, Response.json({})) });
    await expect(server.awardPoints(award)).rejects.toBe(failure);
    expect(sent).toBe(0);
    // The one slot was given back: the next call gets its turn.
    await expect(server.getHub()).resolves.toEqual({});
  });
});

describe("redirect answers", () => {
  it("a 300 is a redirect too, named with the reason", async () => {
    const error = await clientWith(async () => new Response(null, { status: 300, headers: { location: "/api/v1/hub/alpha/2" } })).discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    // Followed (same origin) until the limit of hops: every request sent is counted.
    expect((error as Error).message).toMatch(/^Not following the 300 redirect to https:\/\/h\.test\/api\/v1\/hub\/alpha\/2: the SDK follows no redirect here\. 6 attempts, \d+ ms in all\.$/);
  });

  it("a browser's opaque redirect (status 0) is a HubRedirectError without location", async () => {
    const opaque = () => {
      const response = new Response(null, { status: 502 });
      Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      return Promise.resolve(response);
    };
    const error = await clientWith(opaque).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(error).toMatchObject({ status: 0, location: undefined });
  });

  it("a 400 is an API error, not a redirect", async () => {
    const error = await clientWith(async () => new Response(null, { status: 400, headers: { location: "/x" } })).getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "BadRequestError", status: 400 });
  });
});

describe("messages of connection failures", () => {
  it("the innermost message wins, empty messages are skipped, at most six levels deep", () => {
    expect(innermostMessage(new Error("outer", { cause: new Error("inner", { cause: new Error("") }) }))).toBe("inner");
    expect(innermostMessage(new Error("only", { cause: "not an error" }))).toBe("only");
    const nest = (depth: number): Error => (depth === 0 ? new Error("deepest") : new Error(`level ${depth}`, { cause: nest(depth - 1) }));
    expect(innermostMessage(nest(5))).toBe("deepest");
    expect(innermostMessage(nest(6))).toBe("level 1");
    expect(innermostMessage("text")).toBeUndefined();
  });

  it("every query in the message is cut, up to whitespace, a bracket or a quote", () => {
    expect(innermostMessage(new Error('GET https://h.test/a?wallet=0xabc failed (https://h.test/b?x=1) "c?y=2"'))).toBe(
      'GET https://h.test/a?… failed (https://h.test/b?…) "c?…"',
    );
  });
});
