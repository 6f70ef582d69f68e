// The pace's two steps on their own: a throttle that says nothing lowers the rate once per
// decrease, whatever the number of attempts queued before it (across processes, a shared pace
// holds many); and the pace stays plain JSON, as a shared keeper stores it.
import { describe, expect, it } from "vitest";
import { giveBack, learn, newPace, turn, type Ticket } from "../../src/core/pace";

const T = 1_800_000_000_000;

describe("the pace's steps", () => {
  it("429s of attempts given their turn before the rate was lowered lower it once; one given its turn after lowers it again", () => {
    const pace = newPace();
    const turns = Array.from({ length: 20 }, (_, i) => turn(pace, T + i * 50, 60_000));
    learn(pace, {}, 429, turns[0]!, T + 1_000, 60_000);
    const lowered = pace.throttled!.rate;
    expect(lowered).toBeGreaterThan(0.5);
    for (const ticket of turns.slice(1)) learn(pace, {}, 429, ticket, T + 1_001, 60_000);
    expect(pace.throttled!.rate).toBe(lowered);
    const later = turn(pace, T + 1_100, 60_000);
    learn(pace, {}, 429, later, later[0] + 10, 60_000);
    expect(pace.throttled!.rate).toBeLessThan(lowered);
  });

  it("a turn further away than the call may wait takes nothing: no count, no spent allowance, no later start", () => {
    const pace = newPace();
    learn(pace, { remaining: 0, resetAt: T + 5_000 }, 200, [0, 0, pace.id, 0], T, 60_000);
    const before = JSON.stringify(pace);
    expect(turn(pace, T, 1_000).slice(0, 2)).toEqual([T + 5_000, 0]);
    expect(JSON.stringify(pace)).toBe(before);
    expect(turn(pace, T, 5_000).slice(0, 2)).toEqual([T + 5_000, 1]);
  });

  it("stays plain JSON after every kind of answer (no Infinity, nothing lost)", () => {
    const pace = newPace();
    const a = turn(pace, T, 60_000);
    learn(pace, { remaining: 3, resetAt: T + 1_000 }, 200, a, T + 10, 60_000);
    const b = turn(pace, T + 20, 60_000);
    learn(pace, {}, 429, b, T + 30, 60_000);
    learn(pace, { retryAt: T + 2_000 }, 503, b, T + 40, 60_000);
    expect(JSON.parse(JSON.stringify(pace))).toEqual(pace);
    expect(pace).toMatchObject({ pausedUntil: T + 2_000, started: 2, allowance: { left: 2, until: T + 1_000 } });
  });

  it("at a reset, as many starts as a window held, the rest a second later; an answer to an older attempt grants nothing, one started in the assumed window replaces it", () => {
    const pace = newPace();
    const first = [0, 1, 2].map(() => turn(pace, T, 60_000));
    first.forEach((ticket, i) => learn(pace, { remaining: 2 - i, resetAt: T + 1_000 }, 200, ticket, T + 10, 60_000));
    expect(Array.from({ length: 5 }, () => turn(pace, T + 20, 60_000)[0])).toEqual([T + 1_000, T + 1_000, T + 1_000, T + 2_000, T + 2_000]);
    expect(pace.allowance).toEqual({ left: 1, until: T + 3_000, size: 3, from: 6 });
    learn(pace, { remaining: 0, resetAt: T + 1_900 }, 200, first[2]!, T + 1_050, 60_000);
    expect(pace.allowance).toEqual({ left: 1, until: T + 3_000, size: 3, from: 6 });
    learn(pace, { remaining: 10, resetAt: T + 2_950 }, 200, [T + 2_000, 7, pace.id, 0], T + 2_010, 60_000);
    expect(pace.allowance).toEqual({ left: 9, until: T + 2_950, size: 11 });
  });

  it("a wait or a reset further than a call may wait is kept by no one: the rate drops to its floor, one attempt every 2 s asks again", () => {
    for (const fields of [{ retryAt: T + 3_600_000 }, { remaining: 0, resetAt: T + 3_600_000 }]) {
      const pace = newPace();
      const ticket = turn(pace, T, 60_000);
      expect(learn(pace, fields, 503, ticket, T + 10, 60_000)).toEqual([T + 3_600_000, undefined]);
      expect(pace).toMatchObject({ pausedUntil: 0, allowance: undefined, throttled: { rate: 0.5, at: T + 10 } });
      expect(turn(pace, T + 20, 60_000)[0]).toBe(T + 2_000);
      expect(turn(pace, T + 20, 60_000)[0]).toBe(T + 4_000);
    }
    // Within what a call may wait: kept, as asked.
    const pace = newPace();
    expect(learn(pace, { retryAt: T + 30_000 }, 503, turn(pace, T, 60_000), T + 10, 60_000)).toEqual([T + 30_000, T + 30_000]);
    expect(pace.throttled).toBeUndefined();
  });

  it("every throttle teaches the rate, a Retry-After's too: the pause, then the rate refused, less", () => {
    const pace = newPace();
    const tickets = Array.from({ length: 40 }, (_, i) => turn(pace, T + i * 25, 60_000));
    // The call waits the 2 whole seconds asked; the pause every call keeps is a second shorter.
    expect(learn(pace, { retryAt: T + 3_000 }, 429, tickets.at(-1)!, T + 1_000, 60_000)).toEqual([T + 3_000, T + 2_000]);
    // 40 starts in about a second: 0.7 of 40/s.
    expect(pace.throttled!.rate).toBeCloseTo(40, 0);
    const [first] = turn(pace, T + 1_010, 60_000);
    const [second] = turn(pace, T + 1_010, 60_000);
    expect(first).toBe(T + 2_000);
    expect(1000 / (second - first)).toBeLessThan(40);
  });

  it("a start given back returns its time, its count and its share of the window; one of another pace changes nothing", () => {
    const pace = newPace();
    learn(pace, { remaining: 5, resetAt: T + 1_000 }, 200, [0, 0, pace.id, 0], T, 60_000);
    learn(pace, {}, 429, turn(pace, T, 60_000), T + 10, 60_000);
    const before = structuredClone(pace);
    const tickets: Ticket[] = Array.from({ length: 3 }, () => turn(pace, T + 20, 60_000));
    expect(pace.lastStart).toBeGreaterThan(before.lastStart);
    for (const ticket of [tickets[1]!, tickets[0]!, tickets[2]!]) giveBack(pace, ticket);
    expect(pace).toMatchObject({ lastStart: before.lastStart, started: before.started, allowance: before.allowance });
    giveBack(pace, [T, 1, "another", 500]);
    expect(pace).toMatchObject({ lastStart: before.lastStart, started: before.started });
  });

  it("an answer to a start of another pace is counted as the latest start: the hub's remaining, as it said", () => {
    const pace = newPace();
    for (let i = 0; i < 50; i++) turn(pace, T, 60_000);
    learn(pace, { remaining: 30, resetAt: T + 1_000 }, 200, [T, 3, "a process's own pace", 0], T + 10, 60_000);
    expect(pace.allowance).toMatchObject({ left: 30 });
    learn(pace, { remaining: 30, resetAt: T + 1_000 }, 200, [T, 3, pace.id, 0], T + 10, 60_000);
    expect(pace.allowance).toMatchObject({ left: -17 });
  });
});
