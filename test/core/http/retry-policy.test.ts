import { HTTPError } from "ky";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { AttemptTimeoutError } from "../../../src/core/http/attempt";
import { RateGate, RETRY_COST, TIMEOUT_RETRY_COST } from "../../../src/core/http/rate-gate";
import { kyRetry, resolveRetry, RETRY_STATUSES, THROTTLE_RETRIES, type RetryContext } from "../../../src/core/http/retry";
import { parseRetryAfter } from "../../../src/core/http/retry-after";
import { UserHookError } from "../../../src/core/http/user-hook";

afterEach(() => {
  vi.useRealTimers();
});

const context = (budget = 500, lines: unknown[][] = []): RetryContext => ({
  gate: new RateGate({ maxConcurrency: 1, maxRequestsPerSecond: Infinity, retryBudget: budget }),
  budgetExhausted: false,
  log: (...line) => void lines.push([line[0], line[1], line[2]()]),
  what: () => "GET https://h.test/api/v1/hub/alpha",
});

const httpError = (status: number, headers: Record<string, string> = {}) => {
  const request = new Request("https://h.test/api/v1/hub/alpha");
  return new HTTPError(new Response("", { status, headers }), request, {} as never);
};

const decide = (retry: ReturnType<typeof kyRetry>, error: Error) =>
  (retry.shouldRetry as (state: { error: Error; retryCount: number }) => boolean | undefined)({ error, retryCount: 0 });

describe("resolveRetry", () => {
  it("defaults: 2 retries from 300 ms, at most 10 s apart, Retry-After up to 60 s", () => {
    expect(resolveRetry(undefined)).toEqual({ limit: 2, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 });
  });

  it("a number is the limit; an object overrides field by field", () => {
    expect(resolveRetry(5)).toEqual({ limit: 5, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 });
    expect(resolveRetry({ backoff: 1 })).toEqual({ limit: 2, backoff: 1, maxBackoff: 10_000, maxRetryAfter: 60_000 });
  });
});

describe("backoff and jitter", () => {
  it("the delay doubles from `backoff` with each failure; after a 429 it is one base step (the gate paces)", () => {
    const retry = kyRetry(resolveRetry({ backoff: 100 }), "get", context());
    const delays = [503, 503, 429, 503].map((status) => (decide(retry, httpError(status)), retry.delay!(1)));
    expect(delays).toEqual([100, 200, 100, 400]);
  });

  it("passes the limit plus the throttle retries, the method and the backoff cap to ky; retry 0 stays 0", () => {
    const retry = kyRetry(resolveRetry({ limit: 4, maxBackoff: 1_234 }), "post", context());
    expect(retry).toMatchObject({ limit: 4 + THROTTLE_RETRIES, methods: ["post"], backoffLimit: 1_234 });
    expect(kyRetry(resolveRetry(0), "get", context()).limit).toBe(0);
  });

  it("jitter waits between half and all of the delay, and logs the wait with its reason", () => {
    const lines: unknown[][] = [];
    const ctx = context(500, lines);
    const retry = kyRetry(resolveRetry({}), "get", ctx);
    decide(retry, httpError(503));
    const jitter = retry.jitter as (delay: number) => number;
    vi.spyOn(Math, "random").mockReturnValue(0);
    expect(jitter(1_000)).toBe(500);
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    expect(jitter(1_000)).toBeCloseTo(999.5);
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    expect(jitter(1_000)).toBe(750);
    expect(lines.at(-1)).toEqual(["info", "retry", { call: ctx.what(), after: "503", waitMs: 750 }]);
  });
});

describe("which failures are retried", () => {
  it.each(RETRY_STATUSES)("status %i is retried, paying the retry cost", (status) => {
    const ctx = context();
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), httpError(status))).toBe(true);
    expect(ctx.gate.retryTokens).toBe(500 - RETRY_COST);
  });

  it.each([400, 401, 403, 404, 409, 422, 501, 505])("status %i is final", (status) => {
    const ctx = context();
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), httpError(status))).toBe(false);
    expect(ctx.gate.retryTokens).toBe(500);
  });

  it("the SDK's own errors, a failing hook and aborts are final", () => {
    const retry = kyRetry(resolveRetry({}), "get", context());
    expect(decide(retry, new HubValidationError("x", []))).toBe(false);
    expect(decide(retry, new UserHookError("hook"))).toBe(false);
    const abort = new Error("stop");
    abort.name = "AbortError";
    expect(decide(retry, abort)).toBe(false);
  });

  it("an aborted call is final, whatever the error", () => {
    const controller = new AbortController();
    controller.abort();
    const ctx = { ...context(), signal: controller.signal };
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), new TypeError("fetch failed"))).toBe(false);
  });

  it("a timeout costs more than another failure", () => {
    const ctx = context();
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), new AttemptTimeoutError("slow"))).toBe(true);
    expect(ctx.gate.retryTokens).toBe(500 - TIMEOUT_RETRY_COST);
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), new TypeError("fetch failed"))).toBe(true);
    expect(ctx.gate.retryTokens).toBe(500 - TIMEOUT_RETRY_COST - RETRY_COST);
  });

  it("a spent budget refuses the retry, says so, and logs it once with the reason", () => {
    const lines: unknown[][] = [];
    const ctx = context(RETRY_COST - 1, lines);
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), new TypeError("fetch failed"))).toBe(false);
    expect(ctx.budgetExhausted).toBe(true);
    expect(lines).toEqual([["warn", "retry-budget-spent", { call: ctx.what(), after: "fetch failed" }]]);
  });

  it("a timeout that the budget cannot pay is logged as such", () => {
    const lines: unknown[][] = [];
    const ctx = context(TIMEOUT_RETRY_COST - 1, lines);
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), new AttemptTimeoutError("slow"))).toBe(false);
    expect(lines).toEqual([["warn", "retry-budget-spent", { call: ctx.what(), after: "timeout" }]]);
  });

  it("a budget of exactly one retry pays for it", () => {
    const ctx = context(RETRY_COST);
    expect(decide(kyRetry(resolveRetry({}), "get", ctx), httpError(503))).toBe(true);
    expect(ctx.budgetExhausted).toBe(false);
    expect(ctx.gate.retryTokens).toBe(0);
  });

  it("a Retry-After beyond maxRetryAfter is final and logged; one at the limit is retried", () => {
    const lines: unknown[][] = [];
    const ctx = context(500, lines);
    const retry = kyRetry(resolveRetry({ maxRetryAfter: 5_000 }), "get", ctx);
    expect(decide(retry, httpError(429, { "retry-after": "6" }))).toBe(false);
    expect(lines).toEqual([["warn", "retry-after-too-long", { call: ctx.what(), retryAfterSeconds: 6 }]]);
    expect(decide(retry, httpError(429, { "retry-after": "5" }))).toBe(true);
    expect(decide(retry, httpError(503, { "retry-after": "soon" }))).toBe(true);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");

  it.each([
    ["120", 120],
    ["0", 0],
    ["1.25", 1.25],
    [" 7 ", 7],
  ])("delta-seconds %j is %d", (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  it.each([null, undefined, "", "   ", "soon", "5x", "x5", "-3", "1.", "12 34", "May"])("%j is unreadable: undefined", (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it("an HTTP date is the whole seconds until then, rounded up", () => {
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now + 500)).toBe(30);
  });

  it.each(["Sunday, 22-Nov-26 10:00:30 GMT", "2026-11-22T10:00:30Z"])("the obsolete RFC 850 form and an ISO date-time are read too: %j", (value) => {
    expect(parseRetryAfter(value, now)).toBe(30);
  });

  it("the asctime form (no zone: local time) is read as a date", () => {
    expect(parseRetryAfter("Sun Nov 22 10:00:30 2026", now)).toBe(Math.max(0, Math.ceil((new Date(2026, 10, 22, 10, 0, 30).getTime() - now) / 1000)));
  });

  it("a date in the past is no wait, never a negative one", () => {
    expect(parseRetryAfter("Sun, 22 Nov 2026 09:59:00 GMT", now)).toBe(0);
  });

  it("uses the current time by default", () => {
    vi.useFakeTimers({ toFake: ["Date"], now });
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:01:00 GMT")).toBe(60);
  });
});
