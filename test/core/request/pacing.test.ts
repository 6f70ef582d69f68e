// Pacing by what the server announces (request.ts, `#turn` and `#learn`), under fake timers: when
// each attempt is let out, to the millisecond.
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient } from "public-hub-sdk";

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

/** Runs the calls (started together) to their end under the fake clock, from timer to timer. */
async function run(calls: Array<() => Promise<unknown>>) {
  let done = false;
  const pending = Promise.allSettled(calls.map((call) => call())).finally(() => (done = true));
  for (let step = 0; !done && step < 1_000; step++) await vi.advanceTimersToNextTimerAsync();
  return pending;
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
