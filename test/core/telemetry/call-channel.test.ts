import { tracingChannel } from "node:diagnostics_channel";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForbiddenError, HubAbortError, type HubCallContext } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";
import { traceCall, type CallTrace } from "../../../src/core/telemetry/trace-call";

const { mock, client } = useHubMock();
const WALLET = "0xabc";
const award = { wallet: WALLET, amount: 10, reason: "quest", ref: "quest-42:0xabc" };

/** Subscribes to the channel by its fixed name, as a tool that knows nothing of the SDK would. */
function listen() {
  const events: { kind: string; context: HubCallContext; snapshot: Partial<HubCallContext> }[] = [];
  const record = (kind: string) => (context: HubCallContext) => events.push({ kind, context, snapshot: { ...context } });
  const handlers = { start: record("start"), end: record("end"), asyncStart: record("asyncStart"), asyncEnd: record("asyncEnd"), error: record("error") };
  const channel = tracingChannel<unknown, HubCallContext>("public-hub-sdk:call");
  channel.subscribe(handlers);
  stops.push(() => channel.unsubscribe(handlers));
  return events;
}
const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

describe("the public-hub-sdk:call TracingChannel", () => {
  it("publishes start and end of a read, with the documented context", async () => {
    const events = listen();
    await client().getHolder(WALLET);
    expect(events.map((e) => e.kind)).toEqual(["start", "end", "asyncStart", "asyncEnd"]);
    expect(events[0]!.snapshot).toEqual({
      operation: "getHolder",
      method: "GET",
      hub: "alpha",
      baseUrl: mock.baseUrl,
      urlTemplate: "/hub/{slug}/holder/{wallet}",
      path: "/hub/alpha/holder/0xabc",
      wallet: WALLET,
      ref: undefined,
      attempts: 0,
    });
    const done = events[3]!.context;
    expect(done).toMatchObject({ attempts: 1, status: 200 });
    expect(done.result).toMatchObject({ data: { wallet: WALLET } });
    expect(done.error).toBeUndefined();
    // One context object from start to end, as Node's tracePromise gives it.
    expect(events.every((e) => e.context === done)).toBe(true);
  });

  it("names each read by its operation and template", async () => {
    const events = listen();
    const hub = client();
    await hub.discover();
    await hub.getHub();
    await hub.getLeaderboard({ limit: 3 });
    await hub.getStakeStatus(WALLET);
    const starts = events.filter((e) => e.kind === "start").map((e) => [e.snapshot.operation, e.snapshot.urlTemplate, e.snapshot.path, e.snapshot.wallet]);
    expect(starts).toEqual([
      ["discover", "", "", undefined],
      ["getHub", "/hub/{slug}", "/hub/alpha", undefined],
      ["getLeaderboard", "/hub/{slug}/leaderboard", "/hub/alpha/leaderboard", undefined],
      ["getStakeStatus", "/hub/{slug}/stake-status", "/hub/alpha/stake-status", WALLET],
    ]);
  });

  it("publishes a write's ref, its attempts and its status; a retried award is one call", async () => {
    const events = listen();
    mock.failNext(1, { status: 503 });
    await serverClient(mock.baseUrl).awardPoints(award);
    const starts = events.filter((e) => e.kind === "start");
    expect(starts).toHaveLength(1);
    expect(starts[0]!.snapshot).toMatchObject({ operation: "awardPoints", method: "POST", urlTemplate: "/hub/{slug}/bits/earn", ref: award.ref, wallet: WALLET });
    expect(events.at(-1)!.context).toMatchObject({ attempts: 2, status: 200 });
  });

  it("publishes error with the error and the verdict of a refused write", async () => {
    const events = listen();
    const refused = serverClient(mock.baseUrl, { clientId: "pk_beta_demo" }).awardPoints(award);
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    expect(events.map((e) => e.kind)).toEqual(["start", "end", "error", "asyncStart", "asyncEnd"]);
    const error = events.find((e) => e.kind === "error")!.context;
    expect(error.error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, attempts: 1, mayHaveBeenApplied: false });
  });

  it("publishes a write that may have been applied as such (a 503 on every attempt)", async () => {
    const events = listen();
    mock.failNext(3, { status: 503 });
    await expect(serverClient(mock.baseUrl).awardPoints(award)).rejects.toMatchObject({ status: 503 });
    expect(events.find((e) => e.kind === "error")!.context).toMatchObject({ attempts: 3, status: 503, mayHaveBeenApplied: true });
  });

  it("publishes an abort as the call's error; a read carries no verdict", async () => {
    const events = listen();
    const controller = new AbortController();
    controller.abort();
    await expect(client().getHub({ signal: controller.signal })).rejects.toBeInstanceOf(HubAbortError);
    const error = events.find((e) => e.kind === "error")!.context;
    expect(error.error).toBeInstanceOf(HubAbortError);
    expect(error.mayHaveBeenApplied).toBeUndefined();
  });

  it("a campaign is one call, its awards calls of their own", async () => {
    const events = listen();
    await serverClient(mock.baseUrl).awardMany([award, { ...award, ref: "quest-43:0xabc" }]);
    const starts = events.filter((e) => e.kind === "start").map((e) => e.snapshot.operation);
    expect(starts).toEqual(["awardMany", "awardPoints", "awardPoints"]);
    expect(events.at(-1)!.context).toMatchObject({ operation: "awardMany", method: "POST", urlTemplate: "/hub/{slug}/bits/earn", result: { applied: 2 } });
  });

  it("a campaign without onProgress, heard by a subscriber, still runs (its progress goes to the channel's trace only)", async () => {
    const events = listen();
    await expect(serverClient(mock.baseUrl).awardMany([award], { concurrency: 1 })).resolves.toMatchObject({ applied: 1 });
    expect(events.filter((e) => e.kind === "error")).toEqual([]);
  });

  it("with no subscriber and no telemetry, hands the pipeline no trace", async () => {
    expect(tracingChannel("public-hub-sdk:call").hasSubscribers).toBe(false);
    const run = vi.fn(async (trace?: CallTrace) => trace);
    const call = { segments: ["hub", "alpha"] };
    const hub = { baseUrl: mock.baseUrl, hub: "alpha" };
    await expect(traceCall(undefined, hub, call, run)).resolves.toBeUndefined();
    // The same call with a subscriber: the pipeline gets the hooks, the subscriber the call.
    const events = listen();
    await expect(traceCall(undefined, hub, call, run)).resolves.toMatchObject({ attempt: expect.any(Function) });
    expect(events.map((e) => [e.kind, e.snapshot.operation])).toEqual([["start", "getHub"], ["end", "getHub"], ["asyncStart", "getHub"], ["asyncEnd", "getHub"]]);
  });
});

describe("a runtime whose process throws on Node APIs (Next.js's edge runtime)", () => {
  it("has no channel, and the call runs", async () => {
    vi.resetModules();
    const getBuiltinModule = vi.spyOn(process, "getBuiltinModule").mockImplementation(() => {
      throw new Error("A Node.js API is used (process.getBuiltinModule) which is not supported in the Edge Runtime.");
    });
    const fresh = (await import("../../../src/core/telemetry/trace-call")) as typeof import("../../../src/core/telemetry/trace-call");
    await expect(fresh.traceCall(undefined, { baseUrl: mock.baseUrl, hub: "alpha" }, { segments: ["hub", "alpha"] }, async () => "ran")).resolves.toBe("ran");
    expect(getBuiltinModule).toHaveBeenCalled();
  });
});
