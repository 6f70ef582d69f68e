// The call path's edges (request.ts), each to the millisecond under fake timers or by what the
// observers hear: turns given back once, the allowance counted, what each announced field changes.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient, HubRedirectError, RateLimitError, ServerError, type HubClientOptions, type HubTelemetry } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Answer = { status?: number; headers?: Record<string, string>; hold?: Promise<void> };
const BASE = "https://h.test/api/v1";

/** A fetch that answers `answers` in turn (the last repeats), and when each attempt arrived (ms after the start). */
function scripted(answers: Answer[], random = 0) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
  vi.spyOn(Math, "random").mockReturnValue(random);
  const start = Date.now();
  const times: number[] = [];
  const redirects: Array<RequestRedirect | undefined> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const fetch = async (_url: unknown, init?: RequestInit) => {
    const { status = 200, headers = {}, hold } = answers[Math.min(times.length, answers.length - 1)]!;
    times.push(Date.now() - start);
    redirects.push(init?.redirect);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    try {
      await hold;
    } finally {
      inFlight--;
    }
    return Response.json({ slug: "alpha", message: `status ${status}` }, { status, headers });
  };
  return { fetch: fetch as unknown as typeof globalThis.fetch, times, redirects, mostInFlight: () => mostInFlight };
}

const client = (fetch: typeof globalThis.fetch, options: Partial<HubClientOptions> = {}) =>
  new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off", maxConcurrency: 1, fetch, ...options });

/** Runs the calls (started together) to their end under the fake clock, from timer to timer. */
async function run<T>(calls: Array<() => Promise<T>>) {
  let done = false;
  const pending = Promise.allSettled(calls.map((call) => call())).finally(() => (done = true));
  for (let step = 0; !done && step < 1_000; step++) await vi.advanceTimersToNextTimerAsync();
  return pending;
}

const ietf = (r: number, t: number, q?: number) => ({ ...(q !== undefined && { "ratelimit-policy": `"default";q=${q};w=1` }), ratelimit: `"default";r=${r};t=${t}` });

describe("turns", () => {
  it("a call aborted while it waits for a slot leaves the line: the slot goes to the next call", async () => {
    let open!: () => void;
    const script = scripted([{ hold: new Promise<void>((resolve) => (open = resolve)) }, {}]);
    const hub = client(script.fetch);
    const controller = new AbortController();
    const first = hub.getHub();
    const second = hub.getHub({ signal: controller.signal });
    const third = hub.getHub();
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error("left the line"));
    await expect(second).rejects.toBeInstanceOf(HubAbortError);
    open();
    await run([() => first, () => third]);
    // The first's attempt and the third's: the aborted one never reached fetch.
    expect(script.times).toEqual([0, 0]);
    expect(script.mostInFlight()).toBe(1);
  });

  it("an attempt's turn is given back once: a deaf fetch settling after its timeout frees no second slot", async () => {
    let settle!: () => void;
    const deaf = new Promise<void>((resolve) => (settle = resolve));
    const script = scripted([{ hold: deaf }, { hold: new Promise<void>(() => {}) }, {}]);
    const hub = client(script.fetch, { timeout: 100, retry: 0 });
    const first = hub.getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    // The first timed out: its turn went to the second, which now holds it (its fetch hangs).
    const second = hub.getHub({ timeout: false }).catch((e: unknown) => e);
    const third = hub.getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    settle();
    await vi.advanceTimersByTimeAsync(10);
    expect(script.times).toEqual([0, 100]);
    expect(script.mostInFlight()).toBe(2); // the deaf fetch and the second: never the third beside them
    void first;
    void second;
    void third;
  });

  it("an answer's remaining counts the attempts started after the answered one as spent", async () => {
    let open!: () => void;
    // Two calls in flight; the first answers 1 left: the second, already started, spent it.
    const script = scripted([{ headers: ietf(1, 2) }, { hold: new Promise<void>((resolve) => (open = resolve)), headers: ietf(0, 2) }, {}]);
    const hub = client(script.fetch, { maxConcurrency: 2 });
    const calls = [hub.getHub(), hub.getHub()];
    await vi.advanceTimersByTimeAsync(0);
    const third = hub.getHub();
    await vi.advanceTimersByTimeAsync(1_000);
    open();
    await run<unknown>([() => Promise.all(calls), () => third]);
    expect(script.times).toEqual([0, 0, 2_000]);
  });
});

describe("what each announced field changes", () => {
  it("plenty left means no wait at all: 4,999 of 5,000 an hour spaces nothing", async () => {
    const reset = String(Math.ceil(1_800_000_000_000 / 1000) + 3_600);
    const script = scripted([{ headers: { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "4999", "x-ratelimit-reset": reset } }]);
    const hub = client(script.fetch);
    await run([() => hub.getHub(), () => hub.getHub(), () => hub.getHub()]);
    expect(script.times).toEqual([0, 0, 0]);
  });

  it("a reset over an hour is no window: no spacing from it", async () => {
    const script = scripted([{ headers: { "ratelimit-limit": "10", "ratelimit-remaining": "9", "ratelimit-reset": "3601" } }]);
    const hub = client(script.fetch);
    await run([() => hub.getHub(), () => hub.getHub()]);
    expect(script.times).toEqual([0, 0]);
  });

  it("a policy of 1,000 a day spaces nothing while some are left", async () => {
    const script = scripted([{ headers: { "ratelimit-policy": '"default";q=1000;w=86400', ratelimit: '"default";r=999;t=86400' } }]);
    const hub = client(script.fetch);
    await run([() => hub.getHub(), () => hub.getHub()]);
    expect(script.times).toEqual([0, 0]);
  });

  it("a quota of 0 spaces nothing (and never stalls the client)", async () => {
    const script = scripted([{ headers: { "ratelimit-policy": '"default";q=0;w=1' } }]);
    const hub = client(script.fetch);
    await run([() => hub.getHub(), () => hub.getHub()]);
    expect(script.times).toEqual([0, 0]);
  });

  it("a remaining without a reset, or a reset without a remaining, holds nothing", async () => {
    const onlyRemaining = scripted([{ headers: { "ratelimit-remaining": "0" } }]);
    const hub = client(onlyRemaining.fetch);
    await run([() => hub.getHub(), () => hub.getHub()]);
    expect(onlyRemaining.times).toEqual([0, 0]);
    vi.useRealTimers();
    const onlyReset = scripted([{ headers: { "ratelimit-reset": "5" } }]);
    const other = client(onlyReset.fetch);
    await run([() => other.getHub(), () => other.getHub()]);
    expect(onlyReset.times).toEqual([0, 0]);
  });

  it("the pause after a Retry-After ends when the hub said, not later", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "1" } }, {}], 0.5);
    await run([() => client(script.fetch).getHub()]);
    expect(script.times).toEqual([0, 1_000]);
  });

  it("a Retry-After of 0 is no licence to burst: the retry waits its backoff", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "0" } }, {}], 0.5);
    await run([() => client(script.fetch).getHub()]);
    // 300 ms × (0.5 + 0.5 / 2)
    expect(script.times).toEqual([0, 225]);
  });

  it("a Retry-After beyond maxRetryAfter: a RateLimitError at once, and the next call too, without a request", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "120" } }, {}]);
    const hub = client(script.fetch);
    const [first] = await run([() => hub.getHub()]);
    expect(first).toMatchObject({ status: "rejected", reason: { name: "RateLimitError", retryAfterMs: 120_000, attempts: 1 } });
    const [second] = await run([() => hub.getHub()]);
    expect(second).toMatchObject({ status: "rejected", reason: { name: "RateLimitError", retryAfterMs: 120_000, attempts: 0 } });
    expect((second as PromiseRejectedResult).reason.message).toBe("Not sent: the hub's limit allows the next request in 120 s, longer than this call may wait (60 s).");
    expect(script.times).toEqual([0]);
  });

  it("a Retry-After of exactly maxRetryAfter is waited", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "2" } }, {}]);
    await run([() => client(script.fetch, { retry: { maxRetryAfter: 2_000 } }).getHub()]);
    expect(script.times).toEqual([0, 2_000]);
  });

  it("a 429 that announces what is left is no silent throttle: its own backoff, no lowered rate", async () => {
    const script = scripted([{ status: 429, headers: ietf(3, 1) }, {}]);
    const hub = client(script.fetch);
    await run([() => hub.getHub()]);
    await run([() => hub.getHub(), () => hub.getHub()]);
    // 300 ms × 0.5 before the retry; then two starts together.
    expect(script.times).toEqual([0, 150, 150, 150]);
  });
});

describe("the waits between attempts", () => {
  it("after a 429 the wait is the server's, not the backoff's", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "1" } }, {}]);
    await run([() => client(script.fetch, { retry: { backoff: 10_000, maxBackoff: 10_000 } }).getHub()]);
    expect(script.times).toEqual([0, 1_000]);
  });

  it("the backoff counts failures, not throttles: a 500 after a 429 waits the first step", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "1" } }, { status: 500 }, {}]);
    await run([() => client(script.fetch).getHub()]);
    // 300 ms × (0.5 + 0 / 2) after the 500 at 1,000 ms.
    expect(script.times).toEqual([0, 1_000, 1_150]);
  });

  it("a final failure after retries names them once", async () => {
    const script = scripted([{ status: 503 }]);
    const [result] = await run([() => client(script.fetch, { retry: 1 }).getHub()]);
    expect(result).toMatchObject({ status: "rejected", reason: expect.any(ServerError) });
    expect((result as PromiseRejectedResult).reason.message).toBe("503: status 503 2 attempts, 150 ms in all.");
  });
});

describe("observers", () => {
  it("an observer that throws null is logged as null; the call ends as it would have", async () => {
    const lines: string[] = [];
    const keep = (line: string) => void lines.push(line);
    const script = scripted([{}]);
    const hub = client(script.fetch, {
      logLevel: "warn",
      logger: { error: keep, warn: keep, info: keep, debug: keep },
      onRequest: () => {
        throw null;
      },
    });
    const [result] = await run([() => hub.getHub()]);
    expect(result).toMatchObject({ status: "fulfilled", value: { slug: "alpha" } });
    expect(lines).toEqual(["[public-hub] observer-failed error=null", "[public-hub] observer-failed error=null"]);
  });

  it("a telemetry hears a failed attempt's end with no status and the failure", async () => {
    const heard: unknown[][] = [];
    const failure = new TypeError("fetch failed");
    const telemetry: HubTelemetry = {
      name: "test",
      startCall: () => ({ run: (call) => call(), attempt: () => (status, error) => void heard.push([status, error]), end: () => {} }),
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const hub = client((async () => Promise.reject(failure)) as typeof globalThis.fetch, { telemetry, retry: 0 });
    await run([() => hub.getHub()]);
    expect(heard).toEqual([[undefined, failure]]);
  });
});

describe("redirects", () => {
  it("once the runtime hid a read's redirect, reads let it follow, writes still never do", async () => {
    const script = scripted([{}]);
    const seen: Array<RequestRedirect | undefined> = [];
    const opaque = async (url: unknown, init?: RequestInit) => {
      seen.push(init?.redirect);
      if (seen.length === 1) {
        const response = new Response(null, { status: 502 });
        Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
        return response;
      }
      return script.fetch(url as string, init);
    };
    const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: opaque as typeof globalThis.fetch });
    await run([() => server.getHub()]);
    await run([() => server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" })]);
    expect(seen).toEqual(["manual", "follow", "manual"]);
  });

  it("a hidden redirect that cannot be followed says the runtime hides it", async () => {
    const hidden = async () => {
      const response = new Response(null, { status: 502 });
      Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      return response;
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const [result] = await run([() => client(hidden as typeof globalThis.fetch).getHub()]);
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(HubRedirectError);
    expect((result as PromiseRejectedResult).reason.message).toBe("Not following the opaque redirect: the runtime hides it. 2 attempts, 0 ms in all.");
  });
});

describe("a body read within its attempt", () => {
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
