// @ts-nocheck
import { describe, expect, it } from "vitest";
import { RateMeter } from "../../../src/server/campaign/rate-meter";

describe("RateMeter", () => {
  const meter = () => {
    let now = 1_000;
    const rate = new RateMeter(() => now);
    return { rate, at: (ms: number) => (now = ms) };
  };

  it("is 0 before any time has passed", () => {
    const { rate } = meter();
    expect(rate.update(5)).toBe(0);
  });

  it("is the items done per second since the first sample", () => {
    const { rate, at } = meter();
    at(3_000);
    expect(rate.update(10)).toBe(5);
    at(5_000);
    expect(rate.update(30)).toBe(7.5);
  });

  it("keeps about the last five seconds: an old slow start stops counting", () => {
    const { rate, at } = meter();
    at(1_250);
    rate.update(0); // a sample 250 ms in: slow start
    for (let t = 1_500; t <= 12_000; t += 250) {
      at(t);
      rate.update((t - 1_250) / 10); // then 100 per second
    }
    at(12_000);
    expect(rate.update((12_000 - 1_250) / 10)).toBeCloseTo(100, 0);
  });

  it("samples at most every 250 ms", () => {
    const { rate, at } = meter();
    at(1_200);
    rate.update(100); // too soon to be a sample
    at(2_000);
    expect(rate.update(100)).toBe(100);
  });

  it("an update sooner than 250 ms is no sample: it does not become the window's start", () => {
    const { rate, at } = meter();
    at(1_100);
    rate.update(10);
    at(6_150);
    expect(rate.update(20)).toBeCloseTo(20 / 5.15, 6); // still counted from the first sample
  });

  it("an update exactly 250 ms on is a sample, and the window keeps exactly five seconds", () => {
    const { rate, at } = meter();
    at(1_250);
    rate.update(5);
    at(6_250);
    expect(rate.update(10)).toBeCloseTo(10 / 5.25, 6); // 5 s after the second sample: the first still counts
    at(6_260);
    expect(rate.update(10)).toBeCloseTo(5 / 5.01, 6); // now it is out
  });
});
