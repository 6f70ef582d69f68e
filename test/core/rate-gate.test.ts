import { getEventListeners } from "node:events";
import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, ServerError } from "public-hub-sdk";
import { RateGate } from "../../src/core/rate-gate";
import { useHubMock } from "../helpers/mock-server";

const { mock, server, client } = useHubMock();
const hubUrl = () => `${mock.baseUrl}/hub/alpha`;
const clock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
const gate = (settings: Partial<ConstructorParameters<typeof RateGate>[0]> = {}) =>
  new RateGate({ maxConcurrency: 100, maxRequestsPerSecond: Number.POSITIVE_INFINITY, retryBudget: 500, ...settings });

afterEach(() => {
  vi.useRealTimers();
});

describe("a 429 with Retry-After pauses the whole client", () => {
  it("queued requests and the retry all wait it out, then every call succeeds", async () => {
    clock();
    mock.rateLimitNext(1, 2);
    const hub = client({ rateLimit: { maxConcurrency: 2 }, dedupeReads: false });
    const calls = Array.from({ length: 6 }, () => hub.getHub());
    await vi.advanceTimersByTimeAsync(1_990);
    expect(mock.requests).toHaveLength(2); // the 429, and the one already in flight beside it
    await vi.advanceTimersByTimeAsync(310); // 2 s plus the jitter (at most 2000 / 10 + 50 ms)
    await expect(Promise.all(calls)).resolves.toHaveLength(6);
    expect(mock.requests).toHaveLength(7);
  });

  it("the waiters come back spread over the jitter, not in one instant", async () => {
    clock();
    const g = gate();
    g.observe(429, 10_000, Date.now());
    const released: number[] = [];
    const start = Date.now();
    const waits = Array.from({ length: 20 }, () => g.acquire().then(() => released.push(Date.now() - start)));
    await vi.advanceTimersByTimeAsync(11_100);
    await Promise.all(waits);
    expect(Math.min(...released)).toBeGreaterThanOrEqual(10_000);
    expect(Math.max(...released)).toBeLessThanOrEqual(10_000 + 1_050);
    expect(new Set(released).size).toBeGreaterThan(10);
  });

  it("a Retry-After longer than the caller waits does not pause the client", () => {
    const g = gate();
    g.observe(429, Infinity, Date.now());
    expect(g.pausedUntil).toBe(0);
  });
});

describe("a 429 without Retry-After lowers the rate, then ramps back", () => {
  it("cuts to 95 % of what the server let through, recovers in a quarter second, then doubles each half second", async () => {
    clock();
    const g = gate();
    for (let i = 0; i < 50; i++) {
      await g.acquire(); // 10 per second for 5 s
      g.observe(200, undefined, Date.now());
      g.release();
      vi.advanceTimersByTime(100);
    }
    const sentAt = Date.now();
    g.observe(429, undefined, sentAt);
    const cut = g.rate();
    expect(cut).toBeGreaterThan(0.95 * 9.5);
    expect(cut).toBeLessThan(0.95 * 11);
    const ceiling = cut / 0.95;
    vi.advanceTimersByTime(125);
    expect(g.rate()).toBeCloseTo(ceiling * 0.975);
    vi.advanceTimersByTime(125);
    expect(g.rate()).toBeCloseTo(ceiling);
    vi.advanceTimersByTime(500);
    expect(g.rate()).toBeCloseTo(2 * ceiling);
    // A 429 to a request sent before that decrease is the same congestion: no second cut.
    g.observe(429, undefined, sentAt - 1);
    expect(g.rate()).toBeCloseTo(2 * ceiling);
    // What was let through fades: 1.75 s later it counts for e^-1.75.
    vi.advanceTimersByTime(1_000);
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo(0.95 * ceiling * Math.exp(-1.75), 1);
  });

  it("a first throttle early in a start is not taken for a low limit (the short history is corrected for)", async () => {
    clock();
    const g = gate();
    for (let i = 0; i < 11; i++) {
      g.observe(200, undefined, Date.now());
      vi.advanceTimersByTime(30); // 11 answers in 0.3 s: about 37 per second
    }
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeGreaterThan(30);
    expect(g.rate()).toBeLessThan(45);
  });

  it("never below 95 % of one request per second (the ceiling is at least 1/s), nor above maxRequestsPerSecond", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 30 });
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo(0.95); // nothing let through yet: the ceiling is 1
    vi.advanceTimersByTime(10_000);
    expect(g.rate()).toBe(30);
    vi.advanceTimersByTime(60_000);
    expect(g.rate()).toBe(30);
  });

  it("paces attempts at the lowered rate", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 10 });
    const times: number[] = [];
    const start = Date.now();
    const runs = Array.from({ length: 5 }, () => g.acquire().then(() => (times.push(Date.now() - start), g.release())));
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(runs);
    expect(times).toEqual([0, 100, 200, 300, 400]);
  });

  it("end to end: a throttling server without Retry-After gets a lower rate from the client", async () => {
    clock(); // the rate climbs back with time: a frozen clock keeps the check exact
    const hub = client();
    expect(hub.rateLimitStatus.requestsPerSecond).toBe(Number.POSITIVE_INFINITY);
    mock.failNext(1, { status: 429, body: "slow down", contentType: "text/plain" });
    const pending = hub.getHub();
    await vi.advanceTimersByTimeAsync(2); // the 1 ms backoff with its jitter
    await expect(pending).resolves.toMatchObject({ slug: "alpha" });
    expect(hub.rateLimitStatus.requestsPerSecond).toBeCloseTo(0.95); // nothing let through yet: 95 % of the floor of 1/s
    expect(hub.rateLimitStatus).toMatchObject({ pausedUntil: 0, inFlight: 0, queued: 0 });
  });
});

describe("concurrency", () => {
  it("never more attempts in flight than maxConcurrency", async () => {
    let inFlight = 0;
    let most = 0;
    server.use(
      http.get(hubUrl(), async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await delay(10);
        inFlight--;
        return HttpResponse.json({ slug: "alpha" });
      }),
    );
    const shared = client({ rateLimit: { maxConcurrency: 3 }, dedupeReads: false });
    await Promise.all(Array.from({ length: 12 }, () => shared.getHub()));
    expect(most).toBe(3);
  });

  it("an abort while queued leaves the queue: HubAbortError, nothing sent for it", async () => {
    server.use(http.get(hubUrl(), async () => (await delay(50), HttpResponse.json({ slug: "alpha" }))));
    const hub = client({ rateLimit: { maxConcurrency: 1 } });
    const first = hub.getHub();
    const controller = new AbortController();
    const second = hub.getHub({ signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toBeInstanceOf(HubAbortError);
    await expect(first).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(0); // the replaced handler does not record; the mock saw nothing
  });
});

describe("the retry budget", () => {
  it("once spent, a failure is not retried and says why", async () => {
    const hub = client({ rateLimit: { retryBudget: 5 } });
    mock.failNext(1, { status: 503 });
    await expect(hub.getHub()).resolves.toMatchObject({ slug: "alpha" }); // one retry, paid 5
    mock.reset();
    mock.failNext(3, { status: 503 });
    const error = await hub.getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toContain("retry budget is spent");
    expect(mock.requests).toHaveLength(1);
  });

  it("successes give tokens back, up to the budget", async () => {
    const g = gate({ retryBudget: 10 });
    expect(g.spendRetry(5)).toBe(true);
    expect(g.spendRetry(10)).toBe(false);
    g.observe(200, undefined, 0);
    g.observe(204, undefined, 0);
    expect(g.retryTokens).toBe(7);
    for (let i = 0; i < 10; i++) g.observe(200, undefined, 0);
    expect(g.retryTokens).toBe(10);
  });
});

describe("module scope", () => {
  it("importing the gate creates no timer and draws no random number (edge runtimes forbid both)", async () => {
    vi.resetModules();
    const timers = vi.spyOn(globalThis, "setTimeout");
    const random = vi.spyOn(Math, "random");
    const fresh = await import("../../src/core/rate-gate");
    new fresh.RateGate({ maxConcurrency: 1, maxRequestsPerSecond: 1, retryBudget: 1 });
    expect(timers).not.toHaveBeenCalled();
    expect(random).not.toHaveBeenCalled();
  });
});

describe("the gate, unit by unit", () => {
  it("a 503 with Retry-After pauses like a 429; without it, or another status, changes nothing", () => {
    clock();
    const now = Date.now();
    const g = gate();
    g.observe(503, undefined, now);
    g.observe(500, 5_000, now);
    g.observe(404, undefined, now);
    expect(g.pausedUntil).toBe(0);
    expect(g.rate()).toBe(Number.POSITIVE_INFINITY);
    g.observe(503, 2_000, now);
    expect(g.pausedUntil).toBe(now + 2_000);
  });

  it("a shorter later Retry-After does not shorten the pause", () => {
    clock();
    const now = Date.now();
    const g = gate();
    g.observe(429, 5_000, now);
    expect(g.pausedUntil).toBe(now + 5_000);
    g.observe(429, 1_000, now);
    expect(g.pausedUntil).toBe(now + 5_000);
  });

  it("logs each pause and each rate cut with its fields", () => {
    clock();
    const events: Array<[string, Record<string, unknown>]> = [];
    const g = new RateGate({ maxConcurrency: 1, maxRequestsPerSecond: Number.POSITIVE_INFINITY, retryBudget: 5 }, (event, fields) => void events.push([event, fields()]));
    g.observe(429, 3_000, Date.now());
    g.observe(429, undefined, Date.now());
    expect(events).toEqual([
      ["pause", { status: 429, ms: 3_000, waiting: 0 }],
      ["rate-lowered", { perSecond: "0.9" }],
    ]);
  });

  it("only 2xx answers give a retry token back", () => {
    const g = gate({ retryBudget: 10 });
    g.spendRetry(10);
    for (const status of [101, 199, 300, 304, 400]) g.observe(status, undefined, 0);
    expect(g.retryTokens).toBe(0);
    g.observe(299, undefined, 0);
    expect(g.retryTokens).toBe(1);
  });

  it("a cut keeps 95 % of what passed (at least 1/s), recovers in a quarter second, then doubles each half second up to the maximum", () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 5 });
    expect(g.rate()).toBe(5);
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo(0.95, 5);
    vi.advanceTimersByTime(125);
    expect(g.rate()).toBeCloseTo(0.975, 5);
    vi.advanceTimersByTime(125);
    expect(g.rate()).toBeCloseTo(1, 5);
    vi.advanceTimersByTime(500);
    expect(g.rate()).toBeCloseTo(2, 5);
    vi.advanceTimersByTime(3_600_000);
    expect(g.rate()).toBe(5);
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo(0.95, 5); // nothing passed lately: 95 % of the floor of 1/s
  });

  it("an already aborted signal is refused at once with its reason, and takes no slot", async () => {
    const g = gate({ maxConcurrency: 1 });
    const controller = new AbortController();
    controller.abort(new Error("gone"));
    await expect(g.acquire(controller.signal)).rejects.toThrow("gone");
    expect(g.load).toEqual({ inFlight: 0, queued: 0 });
  });

  it("counts attempts in flight and queued; release never goes below zero", async () => {
    const g = gate({ maxConcurrency: 1 });
    await g.acquire();
    const queued = g.acquire();
    expect(g.load).toEqual({ inFlight: 1, queued: 1 });
    g.release();
    await queued;
    expect(g.load).toEqual({ inFlight: 1, queued: 0 });
    g.release();
    g.release();
    expect(g.load).toEqual({ inFlight: 0, queued: 0 });
    await g.acquire();
    expect(g.load).toEqual({ inFlight: 1, queued: 0 });
  });

  it("a waiter aborted in the queue leaves it, and the next one moves up", async () => {
    const g = gate({ maxConcurrency: 1 });
    await g.acquire();
    const controller = new AbortController();
    const aborted = g.acquire(controller.signal);
    const next = g.acquire();
    controller.abort(new Error("left"));
    await expect(aborted).rejects.toThrow("left");
    expect(g.load.queued).toBe(1);
    g.release();
    await next;
    expect(g.load).toEqual({ inFlight: 1, queued: 0 });
  });

  it("during a pause, the jitter spread is a tenth of the wait plus 50 ms, at most a second", async () => {
    clock();
    vi.spyOn(Math, "random").mockReturnValue(0.999);
    const g = gate();
    g.observe(429, 2_000, Date.now());
    const start = Date.now();
    let at = -1;
    const waiting = g.acquire().then(() => (at = Date.now() - start));
    await vi.advanceTimersByTimeAsync(2_000 + 249);
    expect(at).toBe(-1);
    await vi.advanceTimersByTimeAsync(2);
    await waiting;
    expect(at).toBe(2_250);

    const long = gate();
    long.observe(429, 30_000, Date.now());
    const longStart = Date.now();
    let longAt = -1;
    const longWait = long.acquire().then(() => (longAt = Date.now() - longStart));
    await vi.advanceTimersByTimeAsync(31_000);
    await longWait;
    expect(longAt).toBe(30_999);
  });

  it("a pause re-spreads the waiters already queued, and the one whose jitter ends first goes first", async () => {
    clock();
    const g = gate({ maxConcurrency: 1 });
    await g.acquire();
    const order: string[] = [];
    const first = g.acquire().then(() => (order.push("first"), g.release()));
    const second = g.acquire().then(() => (order.push("second"), g.release()));
    const random = vi.spyOn(Math, "random");
    random.mockReturnValueOnce(0.9).mockReturnValueOnce(0.1);
    g.observe(429, 1_000, Date.now());
    g.release();
    await vi.advanceTimersByTimeAsync(1_200);
    await Promise.all([first, second]);
    expect(order).toEqual(["second", "first"]);
  });

  it("after a pause, requests go at once again, with no jitter", async () => {
    clock();
    const g = gate();
    g.observe(429, 1_000, Date.now());
    await vi.advanceTimersByTimeAsync(1_000);
    const random = vi.spyOn(Math, "random");
    let done = false;
    const immediate = g.acquire().then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    await immediate;
    expect(done).toBe(true);
    expect(random).not.toHaveBeenCalled();
  });
});

describe("the gate's pauses and cuts, at their edges", () => {
  it("a longer Retry-After extends the pause; the same end again is not a new pause", () => {
    clock();
    const events: string[] = [];
    const g = new RateGate({ maxConcurrency: 1, maxRequestsPerSecond: Number.POSITIVE_INFINITY, retryBudget: 5 }, (event) => void events.push(event));
    const now = Date.now();
    g.observe(429, 1_000, now);
    g.observe(429, 5_000, now);
    expect(g.pausedUntil).toBe(now + 5_000);
    g.observe(429, 5_000, now);
    expect(events).toEqual(["pause", "pause"]);
  });

  it("a 429 to a request sent at the very moment of the last cut cuts again", () => {
    clock();
    const g = gate();
    const now = Date.now();
    g.observe(429, undefined, now);
    expect(g.rate()).toBeCloseTo(0.95, 5);
    g.observe(429, undefined, now);
    expect(g.rate()).toBeCloseTo(0.9025, 5);
  });

  it("after a cut, the saved-up burst is gone: one request goes at once, the next waits for the lowered rate", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 100 });
    await g.acquire(); // fills the bucket: 10 tokens (100 ms of the rate), one taken
    g.release();
    // 10 answers at one instant: 10 ÷ (1 − e^−0.25) ≈ 45 per second once the short history is corrected for.
    for (let i = 0; i < 10; i++) g.observe(200, undefined, Date.now());
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo((0.95 * 10) / (1 - Math.exp(-0.25)), 5);
    const released: number[] = [];
    const start = Date.now();
    const waits = [g.acquire(), g.acquire(), g.acquire()].map((p) => p.then(() => (released.push(Date.now() - start), g.release())));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(waits);
    expect(released[1]).toBeGreaterThanOrEqual(23); // 1/43 s
  });

  it("once a pause and its jitter are over, the queue is served first come, first served", async () => {
    clock();
    const g = gate({ maxConcurrency: 1 });
    await g.acquire();
    const random = vi.spyOn(Math, "random");
    const order: string[] = [];
    const a = g.acquire().then(() => (order.push("a"), g.release()));
    const b = g.acquire().then(() => (order.push("b"), g.release()));
    random.mockReturnValueOnce(0.9).mockReturnValueOnce(0.1);
    g.observe(429, 1_000, Date.now());
    await vi.advanceTimersByTimeAsync(5_000); // the slot is still taken long after the pause
    g.release();
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "b"]);
  });

  it("waiters with the same jitter keep their order", async () => {
    clock();
    const g = gate({ maxConcurrency: 1 });
    await g.acquire();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const order: string[] = [];
    const a = g.acquire().then(() => (order.push("a"), g.release()));
    const b = g.acquire().then(() => (order.push("b"), g.release()));
    g.observe(429, 1_000, Date.now());
    g.release();
    await vi.advanceTimersByTimeAsync(2_000);
    await Promise.all([a, b]);
    expect(order).toEqual(["a", "b"]);
  });

  it("keeps one timer at most, however often it is woken", async () => {
    clock();
    const g = gate();
    g.observe(429, 5_000, Date.now());
    const waiting = [g.acquire(), g.acquire()];
    g.observe(429, 6_000, Date.now());
    g.observe(200, undefined, Date.now());
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(8_000);
    await Promise.all(waiting);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe("abort listeners", () => {
  it("a waiter's abort listener is gone once it has its turn (a long-lived signal collects none)", async () => {
    const g = gate();
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) {
      await g.acquire(controller.signal);
      g.release();
    }
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("the token bucket", () => {
  it("holds 100 ms of the rate, then refills one token per 1/rate", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 100 });
    const released: number[] = [];
    const start = Date.now();
    const runs = Array.from({ length: 30 }, () => g.acquire().then(() => (released.push(Date.now() - start), g.release())));
    await vi.advanceTimersByTimeAsync(0);
    expect(released).toHaveLength(10); // the bucket, at once
    await vi.advanceTimersByTimeAsync(50);
    expect(released).toHaveLength(15); // then one each 10 ms
    await vi.advanceTimersByTimeAsync(200);
    await Promise.all(runs);
    expect(released.at(-1)).toBe(200);
  });
});

describe("after unlimited sending", () => {
  it("the first cut lets the next request go at once: no debt was run up while there was no limit", async () => {
    clock();
    const g = gate();
    for (let i = 0; i < 50; i++) {
      await g.acquire();
      g.release();
    }
    g.observe(429, undefined, Date.now());
    let sent = false;
    const next = g.acquire().then(() => (sent = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toBe(true);
    await next;
  });

  it("what passed counts with a one-second decay: a cut half a second later keeps 95 % of e^-0.5 of it, corrected for half a second of history", () => {
    clock();
    const g = gate();
    for (let i = 0; i < 50; i++) g.observe(200, undefined, Date.now());
    vi.advanceTimersByTime(500);
    g.observe(429, undefined, Date.now());
    expect(g.rate()).toBeCloseTo((0.95 * 50 * Math.exp(-0.5)) / (1 - Math.exp(-0.5)), 5);
  });
});

describe("waiters in the queue", () => {
  it("a queued waiter's abort listener is removed when it gets its turn", async () => {
    const g = gate({ maxConcurrency: 1 });
    const controller = new AbortController();
    await g.acquire();
    const queued = g.acquire(controller.signal);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(1);
    g.release();
    await queued;
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("a waiter queued once a pause is over gets no jitter: it goes as soon as a slot is free", async () => {
    clock();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    const g = gate({ maxConcurrency: 1 });
    g.observe(429, 10_000, Date.now());
    vi.advanceTimersByTime(10_000); // exactly the end of the pause
    let went = false;
    const first = g.acquire(); // the pause is over: at once
    await vi.advanceTimersByTimeAsync(0);
    await first;
    const second = g.acquire().then(() => (went = true));
    g.release();
    await vi.advanceTimersByTimeAsync(0);
    expect(went).toBe(true);
    await second;
  });

  it("a part of a token left shortens the wait for the next one", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 10 }); // one token per 100 ms, a bucket of one
    await g.acquire();
    g.release();
    vi.advanceTimersByTime(40); // 0.4 of a token back
    let went = false;
    const next = g.acquire().then(() => (went = true));
    await vi.advanceTimersByTimeAsync(59);
    expect(went).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(went).toBe(true);
    await next;
  });
});
