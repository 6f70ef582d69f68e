// The pace's two steps on their own: a throttle that says nothing lowers the rate once per
// decrease, whatever the number of attempts queued before it (across processes, a shared pace
// holds many); and the pace stays plain JSON, as a shared keeper stores it.
import { describe, expect, it } from "vitest";
import { learn, newPace, turn } from "../../src/core/pace";

const T = 1_800_000_000_000;

describe("the pace's steps", () => {
  it("429s of attempts given their turn before the rate was lowered lower it once; one given its turn after lowers it again", () => {
    const pace = newPace();
    const turns = Array.from({ length: 20 }, (_, i) => turn(pace, T + i * 50, 60_000)[1]);
    learn(pace, {}, 429, turns[0]!, T + 1_000);
    const lowered = pace.throttled!.rate;
    expect(lowered).toBeGreaterThan(0.5);
    for (const startedAs of turns.slice(1)) learn(pace, {}, 429, startedAs, T + 1_001);
    expect(pace.throttled!.rate).toBe(lowered);
    const [start, later] = turn(pace, T + 1_100, 60_000);
    learn(pace, {}, 429, later, start + 10);
    expect(pace.throttled!.rate).toBeLessThan(lowered);
  });

  it("a turn further away than the call may wait takes nothing: no count, no spent allowance, no later start", () => {
    const pace = newPace();
    learn(pace, { remaining: 0, resetAt: T + 5_000 }, 200, 0, T);
    const before = JSON.stringify(pace);
    expect(turn(pace, T, 1_000)).toEqual([T + 5_000, 0]);
    expect(JSON.stringify(pace)).toBe(before);
    expect(turn(pace, T, 5_000)).toEqual([T + 5_000, 1]);
  });

  it("stays plain JSON after every kind of answer (no Infinity, nothing lost)", () => {
    const pace = newPace();
    const [, a] = turn(pace, T, 60_000);
    learn(pace, { remaining: 3, resetAt: T + 1_000 }, 200, a, T + 10);
    const [, b] = turn(pace, T + 20, 60_000);
    learn(pace, {}, 429, b, T + 30);
    learn(pace, { retryAt: T + 2_000 }, 503, b, T + 40);
    expect(JSON.parse(JSON.stringify(pace))).toEqual(pace);
    expect(pace).toMatchObject({ pausedUntil: T + 2_000, started: 2, allowance: { left: 2, until: T + 1_000 } });
  });

  it("at a reset, as many starts as a window held, the rest a second later; an answer to an older attempt grants nothing, one started in the assumed window replaces it", () => {
    const pace = newPace();
    const first = [0, 1, 2].map(() => turn(pace, T, 60_000)[1]);
    first.forEach((startedAs, i) => learn(pace, { remaining: 2 - i, resetAt: T + 1_000 }, 200, startedAs, T + 10));
    expect(Array.from({ length: 5 }, () => turn(pace, T + 20, 60_000)[0])).toEqual([T + 1_000, T + 1_000, T + 1_000, T + 2_000, T + 2_000]);
    expect(pace.allowance).toEqual({ left: 1, until: T + 3_000, size: 3, from: 6 });
    learn(pace, { remaining: 0, resetAt: T + 1_900 }, 200, first[2]!, T + 1_050);
    expect(pace.allowance).toEqual({ left: 1, until: T + 3_000, size: 3, from: 6 });
    learn(pace, { remaining: 10, resetAt: T + 2_950 }, 200, 7, T + 2_010);
    expect(pace.allowance).toEqual({ left: 9, until: T + 2_950, size: 11 });
  });
});
