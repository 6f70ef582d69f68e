// @ts-nocheck
import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  BadRequestError,
  ForbiddenError,
  HubAbortError,
  HubConnectionError,
  HubTimeoutError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";
import { useHubMock } from "../../helpers/mock-server";

const { mock, server, client } = useHubMock();

afterEach(() => {
  vi.useRealTimers();
});

/** Fake only the timers and clock that ky and the rate gate wait with; MSW and fetch keep running. */
const fakeTimers = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

describe("retries of reads", () => {
  it("waits the Retry-After seconds of a 429, then succeeds", async () => {
    fakeTimers();
    mock.rateLimitNext(1, 2);
    const pending = client().getHub();
    await vi.advanceTimersByTimeAsync(1_990);
    expect(mock.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(300); // the gate adds at most 2000 / 10 + 50 ms of jitter
    await expect(pending).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(2);
  });

  it("waits until a Retry-After HTTP date", async () => {
    const dated = createHubMock({ retryAfterFormat: "http-date" });
    server.use(...dated.handlers);
    fakeTimers();
    dated.rateLimitNext(1, 3);
    const pending = client().getHub();
    await vi.advanceTimersByTimeAsync(1_500); // the date is whole seconds: the wait is 2–3 s
    expect(dated.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_900);
    await expect(pending).resolves.toMatchObject({ slug: "alpha" });
    expect(dated.requests).toHaveLength(2);
  });

  it("does not wait a Retry-After longer than maxRetryAfter: RateLimitError at once", async () => {
    mock.rateLimitNext(1, 120);
    const error = await client({ retry: { maxRetryAfter: 5_000 } }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(mock.requests).toHaveLength(1);
  });

  it("retries 5xx proxy pages with backoff and succeeds", async () => {
    mock.failNext(2, { status: 502 });
    await expect(client().getLeaderboard()).resolves.toMatchObject({ hub: "alpha" });
    expect(mock.requests).toHaveLength(3);
  });

  it("gives up after the limit with a ServerError holding the page", async () => {
    mock.failNext(5, { status: 503 });
    const error = await client({ retry: { limit: 2, backoff: 1 } }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 503 });
    expect((error as ServerError).message).toContain("503 Service Unavailable");
    expect(String((error as ServerError).body)).toContain("<center><h1>503");
    expect(mock.requests).toHaveLength(3);
  });

  it("retry: 0 sends one attempt", async () => {
    mock.failNext(1, { status: 503 });
    await expect(client({ retry: 0 }).getHub()).rejects.toBeInstanceOf(ServerError);
    expect(mock.requests).toHaveLength(1);
  });

  it("per-call retry overrides the client's", async () => {
    mock.failNext(1, { status: 500 });
    await expect(client({ retry: 0 }).getHub({ retry: 1 })).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(2);
  });

  it("retries network errors, then reports a HubConnectionError", async () => {
    let attempts = 0;
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, () => (attempts++, HttpResponse.error())));
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect((error as HubConnectionError).cause).toBeInstanceOf(TypeError);
    expect(attempts).toBe(3);
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
  ])("never retries %i", async (status, ErrorClass) => {
    let attempts = 0;
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, () => (attempts++, HttpResponse.json({}, { status }))));
    await expect(client().getHub()).rejects.toBeInstanceOf(ErrorClass);
    expect(attempts).toBe(1);
  });
});

describe("abort and timeout", () => {
  it("an aborted signal fails the call with HubAbortError", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user left"));
    const error = await client().getHub({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubAbortError);
    expect((error as HubAbortError).cause).toEqual(new Error("user left"));
  });

  it("aborting during a request cancels it", async () => {
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, async () => (await delay("infinite"), HttpResponse.json({}))));
    const controller = new AbortController();
    const pending = client().getHub({ signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toBeInstanceOf(HubAbortError);
  });

  it("aborting during a backoff wait stops the retries", async () => {
    fakeTimers();
    mock.rateLimitNext(1, 30);
    const controller = new AbortController();
    const pending = client().getHub({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(mock.requests).toHaveLength(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(HubAbortError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(mock.requests).toHaveLength(1);
  });

  it("each attempt has its own timeout; all timing out gives HubTimeoutError", async () => {
    let attempts = 0;
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, async () => (attempts++, await delay("infinite"), HttpResponse.json({}))));
    const error = await client({ timeout: 30, retry: { limit: 1, backoff: 1 } }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect((error as HubTimeoutError).timeout).toBe(30);
    expect(attempts).toBe(2);
  });

  it("a slow first attempt times out and the retry succeeds", async () => {
    let attempts = 0;
    server.use(
      http.get(`${mock.baseUrl}/hub/alpha`, async () => {
        attempts++;
        if (attempts === 1) await delay("infinite");
        return HttpResponse.json({ slug: "alpha" });
      }),
    );
    // The first attempt hangs for ever; the second answers at once, well inside 500 ms even on a loaded machine.
    await expect(client({ timeout: 500 }).getHub()).resolves.toEqual({ slug: "alpha" });
    expect(attempts).toBe(2);
  });
});

describe("429s are the gate's signal, not failures", () => {
  it("five 429s in a row (more than the retry limit) still end in success, paced by the gate", async () => {
    fakeTimers();
    mock.failNext(5, { status: 429, body: "slow down", contentType: "text/plain" });
    const pending = client({ retry: { limit: 2, backoff: 100 } }).getHub();
    await vi.advanceTimersByTimeAsync(30_000);
    await expect(pending).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(6);
  });

  it("a ninth 429 in a row ends the call with RateLimitError", async () => {
    fakeTimers();
    mock.failNext(20, { status: 429, body: "slow down", contentType: "text/plain" });
    const pending = client({ retry: { limit: 2, backoff: 100 } }).getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await pending).toBeInstanceOf(RateLimitError);
    expect(mock.requests).toHaveLength(9); // the first attempt and 8 throttle retries
  });

  it("failures still count against the limit when 429s come between them", async () => {
    fakeTimers();
    mock.failNext(1, { status: 503 });
    mock.failNext(1, { status: 429, body: "", contentType: "text/plain" });
    mock.failNext(2, { status: 503 });
    const pending = client({ retry: { limit: 2, backoff: 100 } }).getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(await pending).toBeInstanceOf(ServerError);
    expect(mock.requests).toHaveLength(4); // 503, 429, 503 (2nd failure), 503 (3rd: over the limit)
  });

  it("retry: 0 retries nothing, not even a 429", async () => {
    mock.failNext(1, { status: 429, body: "", contentType: "text/plain" });
    await expect(client({ retry: 0 }).getHub()).rejects.toBeInstanceOf(RateLimitError);
    expect(mock.requests).toHaveLength(1);
  });

  it("after failures the backoff doubles (50–100 % jitter)", async () => {
    fakeTimers();
    mock.failNext(1, { status: 503 });
    mock.failNext(1, { status: 503 });
    const times: number[] = [];
    const hub = client({ retry: { limit: 2, backoff: 1_000 }, onRequest: (e) => e.type === "request" && times.push(Date.now()) });
    const pending = hub.getHub();
    await vi.advanceTimersByTimeAsync(10_000);
    await pending;
    const [first, second, third] = times;
    expect(second! - first!).toBeGreaterThanOrEqual(500); // 1000 ms with 50–100 % jitter
    expect(second! - first!).toBeLessThanOrEqual(1_000);
    expect(third! - second!).toBeGreaterThanOrEqual(1_000); // 2000 ms with 50–100 % jitter
    expect(third! - second!).toBeLessThanOrEqual(2_000);
  });
});

describe("a fetch that rejects an abort with its own error", () => {
  it("an attempt's timeout is still a HubTimeoutError, not a connection error", async () => {
    fakeTimers();
    // Like fetch polyfills that reject with a fresh AbortError instead of the signal's reason.
    const fetch = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    const hub = client({ fetch: fetch as typeof globalThis.fetch, timeout: 50, retry: 0 });
    const pending = hub.getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(60);
    const error = await pending;
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect((error as HubTimeoutError).timeout).toBe(50);
  });
});
