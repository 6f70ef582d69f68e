// What a telemetry hears of each read and write: the context a call starts and ends with, each
// attempt, retry, pause and campaign progress; an observer may leave out any method but run and end,
// and what it throws never changes the call.
import { describe, expect, it, vi } from "vitest";
import { defineTelemetry, HubClient, NotFoundError, type HubCallContext, type HubCallObserver, type HubClientOptions, type HubTelemetry } from "public-hub-sdk";
import type { AwardInput } from "public-hub-sdk/server";
import { failure } from "../helpers/caught";
import { capture } from "../helpers/log-lines";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";

/** A telemetry whose every call gets `observer` (or none), recording the contexts it starts and ends with. */
function telemetryOf(observer: (ended: HubCallContext[]) => HubCallObserver | undefined) {
  const started: HubCallContext[] = [];
  const ended: HubCallContext[] = [];
  const telemetry: HubTelemetry = defineTelemetry({
    name: "test",
    startCall: (call) => {
      started.push({ ...call });
      return observer(ended);
    },
  });
  return { telemetry, started, ended };
}

/** The two methods an observer must have: runs the call, keeps a copy of the context it ends with. */
const minimal = (ended: HubCallContext[]): HubCallObserver => ({ run: (call) => call(), end: (call) => void ended.push({ ...call }) });

describe("what a telemetry hears of each read", () => {
  it("names the operation, its path template and the path sent, the discovery's being empty", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    const hub = client({ telemetry });
    await hub.discover();
    await hub.getHub();
    await hub.getLeaderboard({ limit: 2 });
    await hub.getHolder(WALLET);
    await hub.getStakeStatus(WALLET);
    const base = { method: "GET", hub: "alpha", baseUrl: hub.baseUrl, attempts: 1, status: 200 };
    expect(ended).toEqual([
      { ...base, operation: "discover", urlTemplate: "", path: "" },
      { ...base, operation: "getHub", urlTemplate: "/hub/{slug}", path: "/hub/alpha" },
      { ...base, operation: "getLeaderboard", urlTemplate: "/hub/{slug}/leaderboard", path: "/hub/alpha/leaderboard" },
      { ...base, operation: "getHolder", urlTemplate: "/hub/{slug}/holder/{wallet}", path: `/hub/alpha/holder/${WALLET}`, wallet: WALLET },
      { ...base, operation: "getStakeStatus", urlTemplate: "/hub/{slug}/stake-status", path: "/hub/alpha/stake-status", wallet: WALLET },
    ]);
    // Exactly "" for discovery, not "/": the base address itself.
    expect(ended[0]!.path).toBe("");
    expect(ended[0]!.urlTemplate).toBe("");
  });

  it("a failed read sets the error, and never mayHaveBeenApplied (that is a write's)", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    const error = await failure(client({ telemetry, hub: "nope" }).getHub());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ operation: "getHub", status: 404, error });
    expect(ended[0]).not.toHaveProperty("mayHaveBeenApplied");
  });

  it("a failed write whose error does not say sets mayHaveBeenApplied to false", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    function* input(): Generator<AwardInput> {
      throw new Error("bad file");
    }
    const error = await failure(serverClient(mock.baseUrl, { telemetry }).awardMany(input()));
    expect(error).toMatchObject({ message: "bad file" });
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ operation: "awardMany", method: "POST", error, mayHaveBeenApplied: false });
  });

  // Each observer method but run and end is optional, and a telemetry may leave a call unobserved:
  // what it leaves out is skipped, never a failure (which would be logged as observer-failed).
  const partial: Array<[string, (ended: HubCallContext[]) => HubCallObserver | undefined]> = [
    ["no observer at all (startCall gives undefined)", () => undefined],
    ["an observer with only run and end", minimal],
    ["an observer whose attempt hears nothing back", (ended) => ({ ...minimal(ended), attempt: () => undefined })],
  ];

  it.each(partial)("%s: a retried read logs no observer failure", async (_name, observer) => {
    const { lines, logger } = capture();
    const { telemetry, started, ended } = telemetryOf(observer);
    mock.failNext(1);
    await expect(client({ telemetry, logger, logLevel: "warn" }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(2);
    expect(started).toHaveLength(1);
    expect(lines).toEqual([]);
    // The status is recorded even when the observer does not listen to the attempts.
    if (ended.length > 0) expect(ended[0]).toMatchObject({ attempts: 2, status: 200 });
  });

  it("an observer with every method hears each attempt, its status and the retry", async () => {
    const heard: unknown[] = [];
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      attempt: (request, attempt) => {
        heard.push(["attempt", new URL(request.url).pathname, attempt]);
        return (status) => void heard.push(["status", status]);
      },
      retry: (reason) => void heard.push(["retry", reason]),
    }));
    mock.failNext(1);
    await client({ telemetry }).getHub();
    expect(heard).toEqual([["attempt", "/api/v1/hub/alpha", 1], ["status", 503], ["retry", "503"], ["attempt", "/api/v1/hub/alpha", 2], ["status", 200]]);
    expect(ended[0]).toMatchObject({ attempts: 2, status: 200 });
  });

  it("an observer's run that throws before running the call: the call runs anyway, once", async () => {
    const { lines, logger } = capture();
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      run: () => {
        throw new Error("no context");
      },
    }));
    await expect(client({ telemetry, logger, logLevel: "warn" }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(1);
    expect(ended).toHaveLength(1);
    expect(lines).toEqual(['[public-hub] observer-failed error="no context"']);
  });

  it("an observer's run that throws after starting the call: the call is not sent again", async () => {
    const runs: Array<Promise<unknown>> = [];
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      run: (call) => {
        runs.push(call());
        throw new Error("after the start");
      },
    }));
    // The call ends as it would have: its data, not the observer's error (it used to be a TypeError).
    await expect(client({ telemetry }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    await expect(runs[0]).resolves.toMatchObject({ data: { slug: "alpha" } });
    expect(mock.requests).toHaveLength(1);
    expect(ended).toHaveLength(1);
  });

  describe("a pause for the server's pace", () => {
    // The answer says nothing is left for 50 ms: the next read waits it out before its first attempt.
    const paced = () => {
      const urls: string[] = [];
      const fetch = (async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ slug: "alpha" }), { headers: { "content-type": "application/json", ratelimit: '"default";r=0;t=0.05' } });
      }) as unknown as typeof globalThis.fetch;
      return { urls, fetch };
    };
    const options = (extra: Partial<HubClientOptions>): HubClientOptions => ({ baseUrl: "https://paced.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", logLevel: "warn", ...extra });

    it("is heard by an observer's pause, with the wait", async () => {
      vi.spyOn(Date, "now").mockReturnValue(1_750_000_000_000); // a still clock: the wait is exactly the reset
      const waits: number[] = [];
      const { telemetry } = telemetryOf((ended) => ({ ...minimal(ended), pause: (waitMs) => void waits.push(waitMs) }));
      const { urls, fetch } = paced();
      const hub = new HubClient(options({ telemetry, fetch }));
      await hub.getHub();
      expect(waits).toEqual([]);
      await hub.getHub();
      expect(waits).toEqual([50]);
      expect(urls).toEqual(["https://paced.example.com/api/v1/hub/alpha", "https://paced.example.com/api/v1/hub/alpha"]);
    });

    it.each(partial.slice(0, 2))("with %s, logs no observer failure", async (_name, observer) => {
      vi.spyOn(Date, "now").mockReturnValue(1_750_000_000_000);
      const { lines, logger } = capture();
      const { telemetry } = telemetryOf(observer);
      const { urls, fetch } = paced();
      const hub = new HubClient(options({ telemetry, fetch, logger }));
      await hub.getHub();
      await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
      expect(urls).toHaveLength(2);
      expect(lines).toEqual([]);
    });
  });

  describe("a campaign's progress", () => {
    const awards: AwardInput[] = [
      { wallet: "0xa1", amount: 1, ref: "edge-1" },
      { wallet: "0xa2", amount: 2, ref: "edge-2" },
    ];

    it("is heard by an observer's progress", async () => {
      const done: number[] = [];
      const { telemetry, ended } = telemetryOf((calls) => ({ ...minimal(calls), progress: (progress) => void done.push(progress.done!) }));
      const summary = await serverClient(mock.baseUrl, { telemetry }).awardMany(awards, { concurrency: 1 });
      expect(summary).toMatchObject({ total: 2, applied: 2 });
      expect(done).toEqual([1, 2]);
      expect(ended.map((call) => call.operation).sort()).toEqual(["awardMany", "awardPoints", "awardPoints"]);
    });

    it.each(partial.slice(0, 2))("with %s, logs no observer failure", async (_name, observer) => {
      const { lines, logger } = capture();
      const { telemetry } = telemetryOf(observer);
      const summary = await serverClient(mock.baseUrl, { telemetry, logger, logLevel: "warn" }).awardMany(awards, { concurrency: 1 });
      expect(summary).toMatchObject({ total: 2, applied: 2 });
      expect(lines).toEqual([]);
    });
  });
});
