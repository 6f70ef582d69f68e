// Pacing by what the server announces (request.ts, `#turn` and `#learn`), under fake timers: when
// each attempt is let out, to the millisecond.
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient } from "public-hub-sdk";
import { client as fetchClient, run, scripted as scriptedFetch } from "../../helpers/scripted-fetch";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

type Answer = { status?: number; headers?: Record<string, string> };

/** A client whose fetch answers `answers` in turn (the last repeats), and when each attempt arrived (ms after the start). */
function scripted(answers: Answer[], maxConcurrency = 1) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
  vi.spyOn(Math, "random").mockReturnValue(0);
  const start = Date.now();
  const times: number[] = [];
  const fetch = async () => {
    const { status = 200, headers = {} } = answers[Math.min(times.length, answers.length - 1)]!;
    times.push(Date.now() - start);
    return Response.json({ slug: "alpha" }, { status, headers });
  };
  const client = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", maxConcurrency, fetch: fetch as typeof globalThis.fetch });
  return { client, times };
}

const ietf = (r: number, t: number, q?: number) => ({ ...(q && { "ratelimit-policy": `"default";q=${q};w=1` }), ratelimit: `"default";r=${r};t=${t}` });

describe("pacing by the server's announced limit", () => {
  it("the quota alone spaces nothing: what is left goes at once", async () => {
    const { client, times } = scripted([{ headers: ietf(9, 1, 10) }]);
    await run([() => client.getHub()]);
    await run([() => client.getHub(), () => client.getHub(), () => client.getHub()]);
    expect(times).toEqual([0, 0, 0, 0]);
  });

  it("nothing left: the next attempt starts when the window resets, not before and not later", async () => {
    const { client, times } = scripted([{ headers: ietf(0, 2) }, { headers: ietf(5, 1) }]);
    await run([() => client.getHub(), () => client.getHub(), () => client.getHub()]);
    expect(times).toEqual([0, 2_000, 2_000]);
  });

  it("the window's earliest reset, not the latest answer's, ends a wait for a window with nothing left", async () => {
    const first = scripted([{ headers: ietf(5, 1) }, { headers: ietf(0, 1) }, { headers: ietf(20, 1) }]);
    await run([() => first.client.getHub()]);
    vi.advanceTimersByTime(300);
    await run([() => first.client.getHub(), () => first.client.getHub()]);
    // The second answer (at 300 ms) says nothing is left for "1 s"; the first dated the window's end at 1,000 ms.
    expect(first.times).toEqual([0, 300, 1_000]);
  });

  it("an answer a second or more later dates a new window, with its own allowance", async () => {
    const { client, times } = scripted([{ headers: ietf(0, 1) }, { headers: ietf(3, 1) }]);
    await run([() => client.getHub(), () => client.getHub(), () => client.getHub()]);
    expect(times).toEqual([0, 1_000, 1_000]);
  });

  it("a 429 whose wait comes from the reset retries at the window's earliest reset", async () => {
    const { client, times } = scripted([{ headers: ietf(5, 1) }, { status: 429, headers: ietf(0, 1) }, {}]);
    await run([() => client.getHub()]);
    vi.advanceTimersByTime(300);
    await run([() => client.getHub()]);
    expect(times).toEqual([0, 300, 1_000]);
  });

  it("a 429's Retry-After is waited in full, whatever the reset says", async () => {
    const { client, times } = scripted([{ headers: ietf(5, 1) }, { status: 429, headers: { ...ietf(0, 1), "retry-after": "1" } }, {}]);
    await run([() => client.getHub()]);
    vi.advanceTimersByTime(300);
    await run([() => client.getHub()]);
    expect(times).toEqual([0, 300, 1_300]);
  });

  it("a 429 that says nothing lowers the client's rate to 70 % of the rate it refused, then climbs back", async () => {
    // Eleven calls 100 ms apart (11 a second), the eleventh refused without a word.
    const { client, times } = scripted([...Array.from({ length: 10 }, () => ({})), { status: 429 }, {}], 16);
    for (let i = 0; i < 11; i++) {
      if (i > 0) vi.advanceTimersByTime(100);
      await run([() => client.getHub()]);
    }
    await run(Array.from({ length: 6 }, () => () => client.getHub()));
    const after = times.slice(11);
    const gaps = after.slice(1).map((at, i) => at - after[i]!);
    // 7.7 per second at first (130 ms apart), climbing: never faster than the 11 per second refused, nor slower than 7.7.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(Math.floor(1000 / 11));
    for (const gap of gaps) expect(gap).toBeLessThanOrEqual(Math.ceil(1000 / 7.7));
    // Five seconds later the rate has climbed past the one refused (21.6 per second).
    vi.advanceTimersByTime(5_000);
    await run(Array.from({ length: 3 }, () => () => client.getHub()));
    const later = times.slice(18);
    expect(later[1]! - later[0]!).toBeLessThan(Math.floor(1000 / 11));
  });

  it("a client that just began is measured over the time its starts span, at least 100 ms: not as one second's worth", async () => {
    // Ten answered at once, the eleventh refused: 11 starts in 100 ms, 110 a second; 77 a second after.
    const { client, times } = scripted([...Array.from({ length: 10 }, () => ({})), { status: 429 }, {}], 16);
    await run(Array.from({ length: 11 }, () => () => client.getHub()));
    await run(Array.from({ length: 4 }, () => () => client.getHub()));
    const after = times.slice(12);
    for (const gap of after.slice(1).map((at, i) => at - after[i]!)) expect(gap).toBeLessThanOrEqual(Math.ceil(1000 / 77));
  });
});

describe("turns: a call waits for a slot, an attempt gives its slot back once, an answer's remaining counts the attempts after it", () => {
  // Attempts through a scripted fetch (test/helpers/scripted-fetch.ts), one at a time.
  const scripted = scriptedFetch;
  const client = fetchClient;

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
  // Attempts through a scripted fetch (test/helpers/scripted-fetch.ts), one at a time.
  const scripted = scriptedFetch;
  const client = fetchClient;

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
    expect((second as PromiseRejectedResult).reason.message).toBe("Not sent: the hub allows the next request in 120 s, more than this call may wait (60 s).");
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
