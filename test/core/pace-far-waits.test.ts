// The pace keeps no wait further than a call may wait (a maintenance page's hour, a junk value: the
// rate drops to its floor, so one attempt at a time asks again), and every throttle teaches the
// rate, a Retry-After's too, its pause a second shorter for the other calls.
import { describe, expect, it } from "vitest";
import { learn, newPace, turn } from "../../src/core/pace";

const T = 1_800_000_000_000;

describe("no answer rules every later call", () => {
  it("a wait or a reset further than a call may wait is kept by no one: the rate drops to its floor, one attempt every 2 s asks again", () => {
    for (const fields of [{ retryAt: T + 3_600_000 }, { remaining: 0, resetAt: T + 3_600_000 }]) {
      const pace = newPace();
      const [, started] = turn(pace, T, 60_000);
      expect(learn(pace, fields, 503, started, T + 10, 60_000)).toEqual([T + 3_600_000, undefined]);
      expect(pace).toMatchObject({ pausedUntil: 0, allowance: undefined, throttled: { rate: 0.5, at: T + 10 } });
      expect(turn(pace, T + 20, 60_000)[0]).toBe(T + 2_000);
      expect(turn(pace, T + 20, 60_000)[0]).toBe(T + 4_000);
    }
    // Within what a call may wait: kept, as asked.
    const pace = newPace();
    expect(learn(pace, { retryAt: T + 30_000 }, 503, turn(pace, T, 60_000)[1], T + 10, 60_000)).toEqual([T + 30_000, T + 30_000]);
    expect(pace.throttled).toBeUndefined();
  });

  it("exactly as far as a call may wait is kept; a millisecond further is not", () => {
    const kept = newPace();
    expect(learn(kept, { retryAt: T + 60_010 }, 503, turn(kept, T, 60_000)[1], T + 10, 60_000)).toEqual([T + 60_010, T + 60_010]);
    const dropped = newPace();
    expect(learn(dropped, { retryAt: T + 60_011 }, 503, turn(dropped, T, 60_000)[1], T + 10, 60_000)).toEqual([T + 60_011, undefined]);
  });

  it("a far reset with something left is no window to keep, and no throttle", () => {
    const pace = newPace();
    expect(learn(pace, { remaining: 4, resetAt: T + 3_600_000 }, 200, turn(pace, T, 60_000)[1], T + 10, 60_000)).toEqual([undefined, undefined]);
    expect(pace).toMatchObject({ pausedUntil: 0, allowance: undefined });
    expect(pace.throttled).toBeUndefined();
  });

  it("every throttle teaches the rate, a Retry-After's too: the pause, then the rate refused, less", () => {
    const pace = newPace();
    const starts = Array.from({ length: 40 }, (_, i) => turn(pace, T + i * 25, 60_000)[1]);
    // The call waits the 2 whole seconds asked; the pause every call keeps is a second shorter.
    expect(learn(pace, { retryAt: T + 3_000 }, 429, starts.at(-1)!, T + 1_000, 60_000)).toEqual([T + 3_000, T + 2_000]);
    // 40 starts in about a second: 0.7 of 40/s.
    expect(pace.throttled!.rate).toBeCloseTo(40, 0);
    const [first] = turn(pace, T + 1_010, 60_000);
    const [second] = turn(pace, T + 1_010, 60_000);
    expect(first).toBe(T + 2_000);
    expect(1000 / (second - first)).toBeLessThan(40);
  });

  it("a 503's Retry-After is kept whole, and teaches no rate", () => {
    const pace = newPace();
    expect(learn(pace, { retryAt: T + 3_000 }, 503, turn(pace, T, 60_000)[1], T + 1_000, 60_000)).toEqual([T + 3_000, T + 3_000]);
    expect(pace.throttled).toBeUndefined();
  });

  it("a 429 that announces what is left teaches the rate too", () => {
    const pace = newPace();
    const starts = Array.from({ length: 10 }, (_, i) => turn(pace, T + i * 100, 60_000)[1]);
    learn(pace, { remaining: 0, resetAt: T + 1_500 }, 429, starts.at(-1)!, T + 1_000, 60_000);
    expect(pace.throttled).toMatchObject({ at: T + 1_000, started: 10 });
  });
});
