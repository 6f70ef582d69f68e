import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, ServerError } from "public-hub-sdk";
import { RateGate } from "../../../src/core/http/rate-gate";
import { useHubMock } from "../../helpers/mock-server";

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
    g.observe(429, 10_000, Date.now(), 60_000);
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
    g.observe(429, 120_000, Date.now(), 60_000);
    expect(g.pausedUntil).toBe(0);
  });
});

describe("a 429 without Retry-After lowers the rate, then ramps back", () => {
  it("cuts to 95 % of what the server let through, recovers in a quarter second, then doubles each half second", async () => {
    clock();
    const g = gate();
    for (let i = 0; i < 50; i++) {
      await g.acquire(); // 10 per second for 5 s
      g.observe(200, undefined, Date.now(), 60_000);
      g.release();
      vi.advanceTimersByTime(100);
    }
    const sentAt = Date.now();
    g.observe(429, undefined, sentAt, 60_000);
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
    g.observe(429, undefined, sentAt - 1, 60_000);
    expect(g.rate()).toBeCloseTo(2 * ceiling);
    // What was let through fades: 1.75 s later it counts for e^-1.75.
    vi.advanceTimersByTime(1_000);
    g.observe(429, undefined, Date.now(), 60_000);
    expect(g.rate()).toBeCloseTo(0.95 * ceiling * Math.exp(-1.75), 1);
  });

  it("a first throttle early in a start is not taken for a low limit (the short history is corrected for)", async () => {
    clock();
    const g = gate();
    for (let i = 0; i < 11; i++) {
      g.observe(200, undefined, Date.now(), 60_000);
      vi.advanceTimersByTime(30); // 11 answers in 0.3 s: about 37 per second
    }
    g.observe(429, undefined, Date.now(), 60_000);
    expect(g.rate()).toBeGreaterThan(30);
    expect(g.rate()).toBeLessThan(45);
  });

  it("never below 95 % of one request per second (the ceiling is at least 1/s), nor above maxRequestsPerSecond", async () => {
    clock();
    const g = gate({ maxRequestsPerSecond: 30 });
    g.observe(429, undefined, Date.now(), 60_000);
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
    const hub = client();
    expect(hub.rateLimitStatus.requestsPerSecond).toBe(Number.POSITIVE_INFINITY);
    mock.failNext(1, { status: 429, body: "slow down", contentType: "text/plain" });
    await expect(hub.getHub()).resolves.toMatchObject({ slug: "alpha" });
    // Nothing let through yet: 95 % of the floor of 1/s, recovering towards 1/s as time passes.
    expect(hub.rateLimitStatus.requestsPerSecond).toBeGreaterThanOrEqual(0.95);
    expect(hub.rateLimitStatus.requestsPerSecond).toBeLessThanOrEqual(1);
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
    g.observe(200, undefined, 0, 0);
    g.observe(204, undefined, 0, 0);
    expect(g.retryTokens).toBe(7);
    for (let i = 0; i < 10; i++) g.observe(200, undefined, 0, 0);
    expect(g.retryTokens).toBe(10);
  });
});

describe("module scope", () => {
  it("importing the gate creates no timer and draws no random number (edge runtimes forbid both)", async () => {
    vi.resetModules();
    const timers = vi.spyOn(globalThis, "setTimeout");
    const random = vi.spyOn(Math, "random");
    const fresh = await import("../../../src/core/http/rate-gate");
    new fresh.RateGate({ maxConcurrency: 1, maxRequestsPerSecond: 1, retryBudget: 1 });
    expect(timers).not.toHaveBeenCalled();
    expect(random).not.toHaveBeenCalled();
  });
});
