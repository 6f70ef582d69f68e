import { describe, expect, it, vi } from "vitest";
import { describeCall, traced, type HubCallObserver } from "../../../src/core/telemetry/traced";

const client = { baseUrl: "https://hub.example.com/api/v1", hub: "alpha" };

describe("describeCall: what a call publishes", () => {
  it.each([
    [{ segments: [] }, "discover", ""],
    [{ segments: ["hub", "alpha"] }, "getHub", "/hub/{slug}"],
    [{ segments: ["hub", "alpha", "leaderboard"], query: { limit: 5 } }, "getLeaderboard", "/hub/{slug}/leaderboard"],
    [{ segments: ["hub", "alpha", "holder", "0xabc"] }, "getHolder", "/hub/{slug}/holder/{wallet}"],
    [{ segments: ["hub", "alpha", "stake-status"], query: { wallet: "0xabc" } }, "getStakeStatus", "/hub/{slug}/stake-status"],
    [{ method: "POST" as const, segments: ["hub", "alpha", "bits", "earn"], ref: "r1", wallet: "0xabc" }, "awardPoints", "/hub/{slug}/bits/earn"],
  ])("%j is %s at %j", (call, operation, urlTemplate) => {
    expect(describeCall(client, call)).toMatchObject({ operation, urlTemplate, hub: "alpha", baseUrl: client.baseUrl, attempts: 0 });
  });

  it("names the wallet of a holder read (its path) and of a stake read (its query), and the award's ref", () => {
    expect(describeCall(client, { segments: ["hub", "alpha", "holder", "0xabc"] })).toMatchObject({ wallet: "0xabc", path: "/hub/alpha/holder/0xabc" });
    expect(describeCall(client, { segments: ["hub", "alpha", "stake-status"], query: { wallet: "0xdef" } })).toMatchObject({ wallet: "0xdef", path: "/hub/alpha/stake-status" });
    expect(describeCall(client, { method: "POST", segments: ["hub", "alpha", "bits", "earn"], ref: "r1", wallet: "0x1" })).toMatchObject({ wallet: "0x1", ref: "r1", method: "POST" });
    expect(describeCall(client, { segments: [] })).toMatchObject({ path: "", method: "GET", wallet: undefined });
  });

  it("a subclass's own call (another hub, a deeper path, an unknown segment) is a `request` with no template", () => {
    for (const segments of [["hub", "beta"], ["hub", "alpha", "holder", "0xabc", "extra"], ["hub", "alpha", "quests"], ["status"]]) {
      const described = describeCall(client, { segments });
      expect(described.operation).toBe("request");
      expect(described.urlTemplate).toBeUndefined();
    }
  });

  it("a name given wins (awardMany)", () => {
    expect(describeCall(client, { method: "POST", segments: ["hub", "alpha", "bits", "earn"], name: "awardMany" })).toMatchObject({ operation: "awardMany", urlTemplate: "/hub/{slug}/bits/earn" });
  });
});

describe("traced: the hooks the pipeline calls", () => {
  it("an observer with only run and end: every hook is safe, and the attempts are still counted", async () => {
    const ended = vi.fn();
    const observer: HubCallObserver = { run: (call) => call(), end: ended };
    await traced(client, { segments: ["hub", "alpha"] }, async (trace) => {
      trace!.gate(Date.now() + 60_000);
      trace!.attempt(new Request("https://hub.example.com/api/v1/hub/alpha"))(200, undefined);
      trace!.retry("503", 10);
      trace!.progress({ done: 1 });
    }, () => observer);
    expect(ended).toHaveBeenCalledWith(expect.objectContaining({ attempts: 1, status: 200 }));
  });

  it("tells a pause only when the gate is paused into the future", async () => {
    const pause = vi.fn();
    const observer: HubCallObserver = { run: (call) => call(), end: () => undefined, pause };
    await traced(client, { segments: ["hub", "alpha"] }, async (trace) => {
      trace!.gate(Date.now() - 1);
      trace!.gate(0);
      trace!.gate(Date.now() + 5_000);
    }, () => observer);
    expect(pause).toHaveBeenCalledTimes(1);
    expect(pause.mock.calls[0]![0]).toBeGreaterThan(4_000);
  });

  it("a gate whose pause ends now is no pause", async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ["Date"] });
    try {
      const pause = vi.fn();
      await traced(client, { segments: ["hub", "alpha"] }, async (trace) => trace!.gate(1_000_000), () => ({ run: (call) => call(), end: () => undefined, pause }));
      expect(pause).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it("with no observer (a channel subscriber only), every hook is safe", async () => {
    await expect(
      traced(client, { segments: ["hub", "alpha"] }, async (trace) => {
        trace!.gate(Date.now() + 60_000);
        trace!.attempt(new Request("https://hub.example.com/api/v1/hub/alpha"))(200, undefined);
        trace!.retry("503", 1);
        trace!.progress({ done: 1 });
        return "ran";
      }),
    ).resolves.toBe("ran");
  });

  it("passes each hook to the observer's own", async () => {
    const heard = vi.fn();
    const observer = { run: <T>(call: () => Promise<T>) => call(), end: () => undefined, attempt: vi.fn(() => heard), retry: vi.fn(), progress: vi.fn() };
    const request = new Request("https://hub.example.com/api/v1/hub/alpha");
    await traced(client, { segments: ["hub", "alpha"] }, async (trace) => {
      trace!.attempt(request)(503, undefined);
      trace!.retry("503", 12);
      trace!.progress({ done: 2 });
    }, () => observer);
    expect(observer.attempt).toHaveBeenCalledWith(request, 1);
    expect(heard).toHaveBeenCalledWith(503, undefined);
    expect(observer.retry).toHaveBeenCalledWith("503", 12);
    expect(observer.progress).toHaveBeenCalledWith({ done: 2 });
  });

  it("a failed write records whether it may have been applied (false when the error does not say); a read never does", async () => {
    const ends: unknown[] = [];
    const observer: HubCallObserver = { run: (call) => call(), end: (call) => ends.push({ ...call }) };
    const fail = (error: unknown) => async () => Promise.reject(error);
    await traced(client, { method: "POST", segments: ["hub", "alpha", "bits", "earn"] }, fail(Object.assign(new Error("x"), { mayHaveBeenApplied: true })), () => observer).catch(() => undefined);
    await traced(client, { method: "POST", segments: ["hub", "alpha", "bits", "earn"] }, fail(new Error("y")), () => observer).catch(() => undefined);
    await traced(client, { segments: ["hub", "alpha"] }, fail(Object.assign(new Error("z"), { mayHaveBeenApplied: true })), () => observer).catch(() => undefined);
    expect(ends.map((call) => (call as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied)).toEqual([true, false, undefined]);
  });
});
