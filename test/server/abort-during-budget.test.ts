/**
 * An abort that lands while a call waits on its budget (a shared budget's exchange with Redis, then
 * the pause it returns) settles the call at once, sends nothing, and says nothing may have been applied.
 */
import { describe, expect, it } from "vitest";
import { HubAbortError } from "public-hub-sdk";
import { HubServerClient, type BudgetStore, type Pace } from "public-hub-sdk/server";
import { newPace } from "../../src/core/pace";

/** A budget whose every exchange takes `ms`, on a pace paused for 8 s (as another process left it). */
const slowBudget = (ms: number): BudgetStore => ({
  open: () => {
    const pace: Pace = { ...newPace(), pausedUntil: Date.now() + 8_000 };
    return { update: (step) => new Promise((resolve) => setTimeout(() => resolve(step(pace)), ms)) };
  },
});

describe("an abort during the budget's exchange", () => {
  it("settles at once as HubAbortError, nothing sent, not 'may have been applied'; a deaf fetch is never called", async () => {
    let calls = 0;
    const deaf: typeof fetch = () => (calls++, new Promise<Response>(() => undefined));
    const client = new HubServerClient({ baseUrl: "https://budget.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: deaf, budget: slowBudget(100) });
    const controller = new AbortController();
    const started = performance.now();
    const call = client.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }, { signal: controller.signal }).catch((error: unknown) => error);
    setTimeout(() => controller.abort(new Error("stop")), 30);
    const error = await call;
    expect(error).toBeInstanceOf(HubAbortError);
    expect(error).toMatchObject({ mayHaveBeenApplied: false });
    // The exchange in flight ends (100 ms); the 8 s pause is not slept.
    expect(performance.now() - started).toBeLessThan(4_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(0);
  });
});
