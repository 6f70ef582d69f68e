import { getEventListeners } from "node:events";
import { fetch as undiciFetch } from "undici";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient, HubConnectionError, ServerError, UnauthorizedError, type HubClientOptions } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { systemErrorCode } from "../../../src/core/request";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";
import { timeless } from "../../helpers/timeless";
import { ioTurns, trackCrypto } from "../../helpers/real-io";
import { client as fetchClient } from "../../helpers/scripted-fetch";

const { mock } = useHubMock();

afterEach(() => {
  vi.useRealTimers();
});

/** Answers given in turn (the last one repeats), and when each attempt arrived. */
function script(...answers: Array<() => Response | Promise<Response>>) {
  const times: number[] = [];
  const fetch = async () => {
    times.push(Date.now());
    return answers[Math.min(times.length, answers.length) - 1]!();
  };
  return { fetch: fetch as unknown as typeof globalThis.fetch, times };
}

const status = (code: number, headers: Record<string, string> = {}) => () => new Response(JSON.stringify({ message: `status ${code}` }), { status: code, headers });
const ok = () => Response.json({ slug: "alpha" });

/** Log lines, kept. */
function capture() {
  const lines: string[] = [];
  const keep = (line: string) => void lines.push(line);
  return { lines, logger: { debug: keep, info: keep, warn: keep, error: keep } };
}

const client = (options: Partial<HubClientOptions>) => new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", ...options });
const writer = (options: Partial<HubClientOptions>) =>
  new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, ...options });
const award = { wallet: "w", amount: 1, ref: "r" };

/** Runs `call` under fake timers until it settles; its result or its error. */
async function settle<T>(call: () => Promise<T>): Promise<T | Error> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  const signing = trackCrypto();
  try {
    let settled = false;
    const pending = call().catch((error: unknown) => error as Error).finally(() => (settled = true));
    // To each next timer, after the WebCrypto work under way (on threads of its own) is done.
    for (const end = Date.now() + 600_000; !settled && Date.now() < end; ) {
      await signing.idle();
      if (!settled) await (vi.getTimerCount() > 0 ? vi.advanceTimersToNextTimerAsync() : ioTurns());
    }
    return await pending;
  } finally {
    signing.restore();
  }
}

describe("retries and their waits", () => {
  it("by default a failure is retried twice, after about 300 ms and then 600 ms", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1); // the full delay: jitter takes between half and all of it
    const { fetch, times } = script(status(503));
    const error = await settle(() => client({ fetch }).getHub());
    expect(error).toMatchObject({ name: "ServerError", status: 503 });
    expect(times.map((t) => t - times[0]!)).toEqual([0, 300, 900]);
  });

  it("jitter waits half the delay at the least; `backoff` shapes the waits, `maxBackoff` caps them", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { fetch, times } = script(status(502));
    await settle(() => client({ fetch, retry: { limit: 4, backoff: 1_000, maxBackoff: 3_000 } }).getHub());
    expect(times.map((t) => t - times[0]!)).toEqual([0, 500, 1_500, 3_500, 6_500]); // 500, 1000, 2000, then 4000 capped at 3000
  });

  it("a number is the limit; 0 turns every retry off, 429s included", async () => {
    const three = script(status(500));
    await settle(() => client({ fetch: three.fetch, retry: 3 }).getHub());
    expect(three.times).toHaveLength(4);
    const none = script(status(429));
    await settle(() => client({ fetch: none.fetch, retry: 0 }).getHub());
    expect(none.times).toHaveLength(1);
  });

  it("429s are retried beyond `limit`, up to 8 more, each one base step apart", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1);
    const { fetch, times } = script(status(429));
    const error = await settle(() => client({ fetch, retry: { limit: 1, backoff: 100 } }).getHub());
    expect(error).toMatchObject({ name: "RateLimitError" });
    expect(times).toHaveLength(1 + 8);
    // The gate also lowers the rate after each 429: the waits are at least the one base step.
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
  });

  it.each([408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524])("status %i is retried", async (code) => {
    const { fetch, times } = script(status(code), ok);
    await expect(settle(() => client({ fetch }).getHub())).resolves.toEqual({ slug: "alpha" });
    expect(times).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 501])("status %i is final", async (code) => {
    const { fetch, times } = script(status(code), ok);
    expect(await settle(() => client({ fetch }).getHub())).toMatchObject({ status: code });
    expect(times).toHaveLength(1);
  });

  it("a readable Retry-After is waited instead of the backoff; an unreadable one means the backoff", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1);
    const told = script(status(503, { "retry-after": "7" }), ok);
    await settle(() => client({ fetch: told.fetch }).getHub());
    expect(told.times[1]! - told.times[0]!).toBeGreaterThanOrEqual(7_000);
    const junk = script(status(503, { "retry-after": "-3" }), ok);
    await settle(() => client({ fetch: junk.fetch }).getHub());
    expect(junk.times[1]! - junk.times[0]!).toBe(300);
  });

  it("a Retry-After beyond maxRetryAfter is final and logged; one at the limit is waited for", async () => {
    const { lines, logger } = capture();
    const long = script(status(429, { "retry-after": "6" }), ok);
    const error = await settle(() => client({ fetch: long.fetch, logger, logLevel: "warn", retry: { maxRetryAfter: 5_000 } }).getHub());
    expect(error).toMatchObject({ name: "RateLimitError", retryAfterMs: 6_000 });
    expect(long.times).toHaveLength(1);
    expect(lines).toEqual(['[public-hub] retry-after-too-long call="GET https://h.test/api/v1/hub/alpha" retryAfterSeconds=6']);
    const atLimit = script(status(429, { "retry-after": "5" }), ok);
    await expect(settle(() => client({ fetch: atLimit.fetch, retry: { maxRetryAfter: 5_000 } }).getHub())).resolves.toEqual({ slug: "alpha" });
  });

  it("a retry after a backoff is logged at info with its reason and wait", async () => {
    vi.spyOn(Math, "random").mockReturnValue(0);
    const { lines, logger } = capture();
    const { fetch } = script(status(502), ok);
    await settle(() => client({ fetch, logger, logLevel: "info" }).getHub());
    expect(lines).toEqual(['[public-hub] retry call="GET https://h.test/api/v1/hub/alpha" after=502 waitMs=150']);
  });
});

describe("errors that are not the network's are final", () => {
  it("an onRequest hook that throws changes nothing: the call ends as it would have, and the throw is logged", async () => {
    const { lines, logger } = capture();
    const { fetch, times } = script(ok);
    const hub = client({ fetch, logger, logLevel: "warn", onRequest: () => {
      throw new Error("metrics down");
    } });
    await expect(settle(() => hub.getHub())).resolves.toEqual({ slug: "alpha" });
    expect(times).toHaveLength(1);
    expect(lines).toEqual(["[public-hub] observer-failed error=\"metrics down\"", "[public-hub] observer-failed error=\"metrics down\""]);
  });

  it("a network failure is retried, and named with its code and origin once retries are spent", async () => {
    const refused = () => Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }) }));
    const { fetch, times } = script(refused);
    const error = await settle(() => client({ fetch }).getHub());
    expect(times).toHaveLength(3);
    expect(error).toMatchObject({ name: "HubConnectionError", code: "ECONNREFUSED", origin: "https://h.test", attempts: 3 });
    expect(timeless((error as Error).message)).toBe("Connection to https://h.test failed: ECONNREFUSED. 3 attempts, T in all.");
  });
});

describe("a fetch that fails oddly", () => {
  it.each([null, undefined, "boom"])("rejecting with %j is a HubConnectionError, never a raw error", async (reason) => {
    const error = await settle(() => client({ fetch: () => Promise.reject(reason), retry: 0 }).getHub());
    expect(error).toMatchObject({ name: "HubConnectionError", origin: "https://h.test", attempts: 1 });
  });
});

describe("a final failure's message names real durations", () => {
  it("an attempt cut at 1 s reads in seconds, and the total is the time spent", async () => {
    const deaf = () => new Promise<Response>(() => undefined);
    const error = (await settle(() => client({ fetch: deaf, timeout: 1_000, retry: 0 }).getHub())) as Error;
    expect(error).toMatchObject({ name: "HubTimeoutError" });
    expect(error.message).toMatch(/1 attempt, cut at 1 s, 1(\.\d)? s in all\.$/);
  });

  it("a short one reads in milliseconds", async () => {
    const deaf = () => new Promise<Response>(() => undefined);
    const error = (await settle(() => client({ fetch: deaf, timeout: 30, retry: { limit: 1, backoff: 1 } }).getHub())) as Error;
    const total = Number(/, (\d+) ms in all\.$/.exec(error.message)?.[1]);
    expect(error.message).toMatch(/2 attempts, each cut at 30 ms, \d+ ms in all\.$/);
    expect(total).toBeGreaterThanOrEqual(60);
    expect(total).toBeLessThan(1_000);
  });
});

describe("each attempt's timeout", () => {
  const never = (_url: unknown, init?: RequestInit) => new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));

  it("an attempt cut by its timeout is logged at debug with what cut it", async () => {
    const { lines, logger } = capture();
    const error = await settle(() => client({ fetch: never as typeof globalThis.fetch, retry: 0, timeout: 40, logLevel: "debug", logger }).getHub());
    expect(error).toMatchObject({ name: "HubTimeoutError", timeout: 40 });
    expect(lines.find((line) => line.startsWith("[public-hub] attempt "))).toMatch(/^\[public-hub\] attempt method=GET url=https:\/\/h\.test\/api\/v1\/hub\/alpha attempt=1 ms=40 error=/);
  });

  it("timeout: false sets no timer: a slow answer is waited for", async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(ok()), 590_000));
    await expect(settle(() => client({ fetch: slow, retry: 0, timeout: false }).getHub())).resolves.toEqual({ slug: "alpha" });
  });

  it("starts after the turn: a call that waited for a slot still gets its whole timeout", async () => {
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(ok()), 80));
    const hub = client({ fetch: slow, retry: 0, timeout: 100, maxConcurrency: 1 });
    const both = await settle(() => Promise.all([hub.getHub(), hub.getHub()]));
    expect(both).toEqual([{ slug: "alpha" }, { slug: "alpha" }]);
  });
});

describe("a caller's signal", () => {
  it("one signal shared by many calls waiting to retry gets one listener, not one per call (no MaxListenersExceededWarning)", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => void warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const { fetch, times } = script(status(503));
      const hub = client({ fetch, retry: { limit: 1, backoff: 1_000 } });
      const controller = new AbortController();
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      const calls = Array.from({ length: 32 }, (_, i) => hub.getHolder(`w${i}`, { signal: controller.signal }).catch((e: unknown) => e));
      await vi.advanceTimersByTimeAsync(10);
      expect(times).toHaveLength(32); // every first attempt failed; all 32 wait for their retry
      expect(getEventListeners(controller.signal, "abort").length).toBe(1);
      await vi.advanceTimersByTimeAsync(5_000);
      await Promise.all(calls);
      await new Promise((resolve) => setImmediate(resolve)); // a warning is emitted on the next tick
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("still aborts a call waiting for its retry", async () => {
    const { fetch, times } = script(status(503));
    const controller = new AbortController();
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const call = client({ fetch }).getHub({ signal: controller.signal }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    controller.abort(new Error("user left"));
    expect(await call).toMatchObject({ name: "HubAbortError", cause: new Error("user left") });
    expect(times).toHaveLength(1);
  });
});

describe("the verdict on a failed write: may it have been applied?", () => {
  it.each([
    [500, true],
    [503, true],
    [599, true],
    [408, true],
    [499, false],
    [429, false],
    [404, false],
    [401, false],
  ])("a write answered %i: %s", async (code, applied) => {
    const { fetch } = script(status(code));
    expect(await settle(() => writer({ fetch }).awardPoints(award))).toMatchObject({ status: code, mayHaveBeenApplied: applied });
  });

  it("a 5xx before a final 4xx leaves it open: the first attempt may have been applied", async () => {
    const { fetch } = script(status(503), status(400));
    expect(await settle(() => writer({ fetch, retry: 1 }).awardPoints(award))).toMatchObject({ status: 400, mayHaveBeenApplied: true });
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "CERT_HAS_EXPIRED"])(
    "a connection failure before sending (%s) was not applied",
    async (code) => {
      const failing = () => Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error(code), { code }) }));
      expect(await settle(() => writer({ fetch: failing }).awardPoints(award))).toMatchObject({ name: "HubConnectionError", code, mayHaveBeenApplied: false });
    },
  );

  it("a failure after sending may have (a reset), and so does one that names no code", async () => {
    const reset = () => Promise.reject(new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) }));
    expect(await settle(() => writer({ fetch: reset }).awardPoints(award))).toMatchObject({ code: "ECONNRESET", mayHaveBeenApplied: true });
    const unnamed = () => Promise.reject(new TypeError("fetch failed"));
    const error = await settle(() => writer({ fetch: unnamed }).awardPoints(award));
    expect(error).toMatchObject({ code: undefined, mayHaveBeenApplied: true });
    expect(timeless((error as Error).message)).toMatch(/^Connection to https:\/\/h\.test failed: fetch failed\. \d attempts?, T in all\. It may have been applied: retrying with the same ref is safe\.$/);
  });

  it("a port that fetch refuses to use (bad port) was never sent, and says so with a code", async () => {
    vi.useRealTimers();
    // undici's own fetch (Node's built-in one), not msw's interception of globalThis.fetch.
    const error = await writer({ baseUrl: "http://127.0.0.1:6666/api/v1", fetch: undiciFetch as unknown as typeof globalThis.fetch }).awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubConnectionError", code: "ERR_BAD_PORT", mayHaveBeenApplied: false });
    expect(timeless((error as Error).message)).toMatch(/^Connection to http:\/\/127\.0\.0\.1:6666 failed: ERR_BAD_PORT\. \d attempts?, T in all\.$/);
  });
});

describe("systemErrorCode", () => {
  it("a system code is letters, digits and _, at least 3, starting with a letter", () => {
    expect(systemErrorCode({ code: "EPIPE" })).toBe("EPIPE");
    expect(systemErrorCode({ code: "E1_" })).toBe("E1_");
    for (const code of ["EP", "1ABC", "E-PIPE", "EPIPE!", " EPIPE", 42]) expect(systemErrorCode({ code })).toBeUndefined();
  });

  it("finds the code two causes deep and in an AggregateError, at most six levels deep", () => {
    expect(systemErrorCode(new TypeError("fetch failed", { cause: new Error("x", { cause: { code: "ECONNRESET" } }) }))).toBe("ECONNRESET");
    expect(systemErrorCode({ errors: [{ code: "ECONNREFUSED" }, { code: "EHOSTUNREACH" }] })).toBe("ECONNREFUSED");
    const nest = (depth: number): unknown => (depth === 0 ? { code: "EDEEP" } : { cause: nest(depth - 1) });
    expect(systemErrorCode(nest(5))).toBe("EDEEP");
    expect(systemErrorCode(nest(6))).toBeUndefined();
  });

  it("skips a malformed code to find one deeper; nothing in a string or null; undici's bad port is ERR_BAD_PORT", () => {
    expect(systemErrorCode({ code: "x", cause: { code: "ECONNRESET" } })).toBe("ECONNRESET");
    expect(systemErrorCode({ errors: "ECONNRESET" })).toBeUndefined();
    expect(systemErrorCode("ECONNRESET")).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
    expect(systemErrorCode(new TypeError("fetch failed", { cause: new Error("bad port") }))).toBe("ERR_BAD_PORT");
  });
});

/** The shape undici gives: TypeError("fetch failed") → cause with the system code. */
const undiciError = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(`getaddrinfo ${code} x`), { code }) });
const mockAward = { wallet: "0xabc", amount: 4, reason: "r", ref: "delivery-1" };

describe("a write whose answer was lost says it may have been applied", () => {
  it("resets on every attempt: HubConnectionError, mayHaveBeenApplied, and the same ref again credits nothing more", async () => {
    mock.loseNextWrites(3, "network-error");
    const hub = serverClient(mock.baseUrl);
    const error = await hub.awardPoints(mockAward).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true, origin: "https://hub.example.com" });
    expect((error as Error).message).toContain("It may have been applied: retrying with the same ref is safe.");
    expect(mock.ledger).toHaveLength(1);
    await expect(hub.awardPoints(mockAward)).resolves.toMatchObject({ duplicate: true });
    expect(mock.ledger).toHaveLength(1);
  });

  it("5xx after retries: ServerError with mayHaveBeenApplied", async () => {
    mock.loseNextWrites(3, 502);
    const error = await serverClient(mock.baseUrl).awardPoints(mockAward).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, mayHaveBeenApplied: true });
    expect((error as Error).message).toContain("retrying with the same ref is safe");
  });

  it("a refusal (401) was not applied", async () => {
    const error = await serverClient(mock.baseUrl, { secret: "wrong" }).awardPoints(mockAward).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ mayHaveBeenApplied: false });
    expect((error as Error).message).not.toContain("may have been applied");
  });

  it("a refused connection was not applied, and names the origin but not the path", async () => {
    const refused = serverClient("http://127.0.0.1:9/api/v1", {
      fetch: async () => Promise.reject(undiciError("ECONNREFUSED")),
    });
    const error = await refused.awardPoints(mockAward).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubConnectionError", code: "ECONNREFUSED", origin: "http://127.0.0.1:9", mayHaveBeenApplied: false });
    expect(timeless((error as Error).message)).toMatch(/^Connection to http:\/\/127\.0\.0\.1:9 failed: ECONNREFUSED\. \d attempts?, T in all\.$/);
  });

  it("a read never says it may have been applied", async () => {
    mock.failNext(3, { status: 503 });
    const error = await serverClient(mock.baseUrl).getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ServerError", mayHaveBeenApplied: false });
  });
});

describe("Retry-After on other statuses", () => {
  it("a 502's Retry-After is not waited (only 429 and 503 pause): the backoff applies, and the log says so", async () => {
    vi.spyOn(Math, "random").mockReturnValue(1);
    const { lines, logger } = capture();
    const { fetch, times } = script(status(502, { "retry-after": "7" }), ok);
    await expect(settle(() => client({ fetch, logger, logLevel: "info" }).getHub())).resolves.toEqual({ slug: "alpha" });
    expect(times[1]! - times[0]!).toBe(300);
    expect(lines).toEqual(['[public-hub] retry call="GET https://h.test/api/v1/hub/alpha" after=502 waitMs=300']);
  });
});

describe("what the pipeline sends and says: no key to discovery, a deaf write cut by its timeout, a 503's wait logged, an unreadable error body", () => {
  it("the discovery read sends neither x-api-key nor a content-type", async () => {
    const seen: Headers[] = [];
    const fetch = (async (_url: string, init: RequestInit) => (seen.push(new Headers(init.headers)), Response.json({ name: "hub" }))) as unknown as typeof globalThis.fetch;
    await client({ fetch }).discover();
    expect(seen[0]!.has("x-api-key")).toBe(false);
    expect(seen[0]!.has("content-type")).toBe(false);
    expect(seen[0]!.get("accept")).toBe("application/json");
  });

  it("a write whose fetch ignores the signal and never settles may have been applied once its timeout cuts it", async () => {
    const deaf = (() => new Promise<Response>(() => undefined)) as typeof globalThis.fetch;
    expect(await settle(() => writer({ fetch: deaf, timeout: 50 }).awardPoints(award))).toMatchObject({ name: "HubTimeoutError", mayHaveBeenApplied: true });
  });

  it("a 503's Retry-After is waited, and the retry log says how long", async () => {
    const { lines, logger } = capture();
    const { fetch, times } = script(status(503, { "retry-after": "7" }), ok);
    await expect(settle(() => client({ fetch, logger, logLevel: "info" }).getHub())).resolves.toEqual({ slug: "alpha" });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(7_000);
    expect(lines).toContain('[public-hub] retry call="GET https://h.test/api/v1/hub/alpha" after=503 waitMs=7000');
  });

  it("an error answer whose body cannot be read is named as empty, not a crash", async () => {
    const broken = () => new Response(new ReadableStream({ start: (controller) => controller.error(new Error("reset")) }), { status: 404 });
    const { fetch } = script(broken);
    expect(await settle(() => client({ fetch }).getHub())).toMatchObject({ name: "NotFoundError", status: 404, message: "404: (empty body)", body: "" });
  });
});

describe("a body read within its attempt", () => {
  // A client on a scripted fetch (test/helpers/scripted-fetch.ts), one call at a time.
  const client = fetchClient;

  // A fetch deaf to abort, whose body never ends (a test double, a polyfill): only the attempt's own listener can end the read.
  const deafBody = (signals: AbortSignal[], first: string) =>
    (async (_url: unknown, init?: RequestInit) => {
      signals.push(init!.signal!);
      return new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode(first)) }), { status: 200 });
    }) as typeof globalThis.fetch;

  it("a 2xx body that stalls is cut at the attempt's timeout, and the turn is free for the next call", async () => {
    const signals: AbortSignal[] = [];
    const hub = client(deafBody(signals, '{"slug":'), { timeout: 50, retry: 0 });
    await expect(hub.getHub()).rejects.toMatchObject({ name: "HubTimeoutError", attempts: 1 });
    // maxConcurrency is 1: a turn kept by the stalled read would hold this call forever.
    await expect(hub.getHub()).rejects.toMatchObject({ name: "HubTimeoutError" });
    expect(signals).toHaveLength(2);
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });

  it("an attempt leaves no listener on its signal once its body is read", async () => {
    const signals: AbortSignal[] = [];
    const fetch = (async (_url: unknown, init?: RequestInit) => (signals.push(init!.signal!), Response.json({ slug: "alpha" }))) as typeof globalThis.fetch;
    await expect(client(fetch).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(getEventListeners(signals[0]!, "abort")).toHaveLength(0);
  });
});
