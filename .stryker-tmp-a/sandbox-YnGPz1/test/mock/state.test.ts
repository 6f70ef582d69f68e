// @ts-nocheck
import { describe, expect, it, vi } from "vitest";
import { MockState } from "../../src/mock/state";

const hubs = {
  alpha: { config: {}, stakers: [], balances: { w: 10 } },
  beta: { config: {}, stakers: [] },
};

describe("MockState", () => {
  it("keeps balances and refs per hub", () => {
    const state = new MockState(hubs, {}, 0);
    expect(state.balanceOf("alpha", "w")).toBe(10);
    expect(state.balanceOf("beta", "w")).toBe(0);
    const answer = state.applyAward({ hub: "beta", wallet: "w", amount: 3, ref: "r" });
    expect(answer).toEqual({ ok: true, hub: "beta", wallet: "w", ref: "r", awarded: 3, balance: 3 });
    expect(state.awardFor("beta", "r")).toEqual({ answer, record: expect.objectContaining({ hub: "beta", ref: "r", amount: 3 }) });
    expect(state.awardFor("alpha", "r")).toBeUndefined();
    expect(state.balanceOf("alpha", "w")).toBe(10);
    state.applyAward({ hub: "alpha", wallet: "w", amount: 2, ref: "r" });
    expect(state.balanceOf("alpha", "w")).toBe(12);
  });

  it("a hub and wallet that run together do not collide with another pair", () => {
    const state = new MockState({ a: { config: {}, stakers: [] }, ab: { config: {}, stakers: [] } }, {}, 0);
    state.applyAward({ hub: "a", wallet: "bc", amount: 1, ref: "x" });
    expect(state.balanceOf("ab", "c")).toBe(0);
  });

  it("stamps each award with the server time and keeps the ledger in order", () => {
    vi.useFakeTimers({ toFake: ["Date"], now: 1_000_000 });
    try {
      const state = new MockState(hubs, {}, 500);
      state.applyAward({ hub: "alpha", wallet: "w", amount: 1, ref: "1" });
      state.applyAward({ hub: "alpha", wallet: "w", amount: 1, ref: "2" });
      expect(state.ledger.map((entry) => [entry.ref, entry.at])).toEqual([
        ["1", 1_000_500],
        ["2", 1_000_500],
      ]);
      expect(state.now()).toBe(1_000_500);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps only a hash of each secret", async () => {
    const state = new MockState(hubs, { pk: { secret: "abc", hub: "alpha" } }, 0);
    const key = state.key("pk")!;
    expect(key.hub).toBe("alpha");
    expect(await key.storedKey).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(state.key("nope")).toBeUndefined();
  });

  it("reset() restores the starting balances, clock and counters", () => {
    const state = new MockState(hubs, {}, 7);
    state.applyAward({ hub: "alpha", wallet: "w", amount: 5, ref: "r" });
    state.clockOffsetMs = 99;
    state.nextRequestId();
    state.requests.push({ method: "GET", url: "u", headers: {}, body: "" });
    state.faults.rateLimits.push(1);
    state.reset();
    expect(state.balanceOf("alpha", "w")).toBe(10);
    expect(state.awardFor("alpha", "r")).toBeUndefined();
    expect(state.ledger).toEqual([]);
    expect(state.requests).toEqual([]);
    expect(state.clockOffsetMs).toBe(7);
    expect(state.faults).toEqual({ lostWrites: [], rateLimits: [], canned: [], cachedAges: [] });
    expect(state.nextRequestId()).toBe("req_mock_000001");
  });
});
