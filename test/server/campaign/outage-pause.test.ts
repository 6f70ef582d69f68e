// A hub briefly away (a deploy: refused connections, 502/503/504, timeouts) pauses a campaign
// instead of stopping it; an outage past `outageTimeout` stops it, named as such.
import { describe, expect, it } from "vitest";
import { HubConnectionError, HubTimeoutError, HubValidationError, ServerError, UnauthorizedError } from "public-hub-sdk";
import { CampaignStoppedError, type AwardInput } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock } = useHubMock();
const awards = (count: number, prefix = "o"): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `${prefix}-${i}` }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const refused = () => new HubConnectionError({ code: "ECONNREFUSED", origin: "http://hub.test", message: "Connection to http://hub.test failed: ECONNREFUSED" });
const unavailable = (mayHaveBeenApplied = true) => new ServerError({ status: 503, code: undefined, message: "503", body: "", headers: {}, mayHaveBeenApplied });
const refusal = (run: Promise<unknown>) => run.then(() => expect.unreachable("resolved"), (e: unknown) => e as CampaignStoppedError);

/**
 * A hub that applies each ref once (a second send of it is a duplicate), and goes away for `downMs`
 * once `after` awards are applied, failing every attempt meanwhile with `failure(attempt)`.
 */
function flakyHub({ after, downMs, failure = refused }: { after: number; downMs: number; failure?: (attempt: number) => Error }) {
  const ledger: string[] = [];
  let downUntil = -1;
  let failed = 0;
  const send = async (award: AwardInput) => {
    await sleep(1);
    if (downUntil < 0 && ledger.length === after) downUntil = performance.now() + downMs;
    if (performance.now() < downUntil) throw failure(++failed);
    if (ledger.includes(award.ref)) return { duplicate: true };
    ledger.push(award.ref);
    return {};
  };
  return { send, ledger, failures: () => failed };
}

describe("a hub away for a moment", () => {
  it("refused connections (a deploy) pause the campaign, which goes on when the hub answers: every award applied once, none failed", async () => {
    const hub = flakyHub({ after: 5, downMs: 700 });
    const summary = await awardMany(awards(60), hub.send, { concurrency: 4 }, campaignContext);
    expect(summary).toMatchObject({ total: 60, applied: 60, duplicates: 0, failed: [] });
    expect([...hub.ledger].sort()).toEqual(awards(60).map((a) => a.ref).sort());
    // Paused, not hammering: the awards in flight when it went away, then one probe at a time with a backoff (250 ms, 500 ms…).
    expect(hub.failures()).toBeLessThanOrEqual(4 + 4);
  });

  it("502/503/504 and timeouts are an outage too; the award whose attempt may have been applied is counted applied, not a duplicate", async () => {
    const failures = [unavailable(), new HubTimeoutError({ timeout: 100, origin: "http://hub.test", mayHaveBeenApplied: true }), new ServerError({ status: 502, code: undefined, message: "502", body: "", headers: {} }), new ServerError({ status: 504, code: undefined, message: "504", body: "", headers: {} })];
    const hub = flakyHub({ after: 3, downMs: 600, failure: (attempt) => failures[attempt % failures.length]! });
    // The hub applied o-3 and then answered 503 (a proxy gave up): the re-send finds it applied.
    const send = async (award: AwardInput) => {
      if (award.ref === "o-3" && !hub.ledger.includes("o-3")) {
        hub.ledger.push("o-3");
        throw unavailable(true);
      }
      return hub.send(award);
    };
    const summary = await awardMany(awards(20), send, { concurrency: 3, maxFailures: 2 }, campaignContext);
    expect(summary).toMatchObject({ total: 20, applied: 20, duplicates: 0, failed: [] });
    expect(hub.ledger).toHaveLength(20);
  });

  it("through the client: a hub refusing connections for a while (each award's own retries spent) loses and doubles nothing", async () => {
    let downUntil = -1;
    let posts = 0;
    const fetch: typeof globalThis.fetch = async (input, init) => {
      if (++posts === 6) downUntil = performance.now() + 600;
      if (performance.now() < downUntil) throw Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:80"), { code: "ECONNREFUSED" }) });
      return globalThis.fetch(input, init);
    };
    const input = awards(30, "client");
    const summary = await serverClient(mock.baseUrl, { fetch }).awardMany(input, { concurrency: 4 });
    expect(summary).toMatchObject({ total: 30, applied: 30, duplicates: 0, failed: [] });
    expect(mock.ledger.map((award) => award.ref).sort()).toEqual(input.map((award) => award.ref).sort());
  });

  it("an address where nothing ever answered (a wrong URL) still stops after maxFailures: no outage without a hub", async () => {
    const send = async () => {
      throw refused();
    };
    const error = await refusal(awardMany(awards(30), send, { concurrency: 1, maxFailures: 3 }, campaignContext));
    expect(error).toMatchObject({ name: "CampaignStoppedError", failures: 3 });
    expect(error.reason).toMatch(/^ECONNREFUSED: the server at http:\/\/hub.test cannot be reached/);
  });

  it("a hub that refuses (401) still stops the campaign after maxFailures", async () => {
    const send = async () => {
      throw new UnauthorizedError({ status: 401, code: "invalid_signature", message: "401", body: {}, headers: {} });
    };
    const error = await refusal(awardMany(awards(30), send, { concurrency: 1, maxFailures: 3 }, campaignContext));
    expect(error).toMatchObject({ name: "CampaignStoppedError", failures: 3 });
    expect(error.reason).toMatch(/^401 invalid_signature/);
  });
});

describe("an outage longer than outageTimeout", () => {
  it("stops the campaign with reason outage, its summary, and the awards it cut short; no failure counted", async () => {
    const hub = flakyHub({ after: 3, downMs: 60_000 });
    const input = awards(10);
    const started = performance.now();
    const error = await refusal(awardMany(input, hub.send, { concurrency: 2, outageTimeout: 400 }, campaignContext));
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(error).toBeInstanceOf(CampaignStoppedError);
    expect(error.reason).toBe(CampaignStoppedError.OUTAGE);
    expect(error.reason).toBe("outage");
    expect(error.failures).toBe(0);
    expect(error.summary).toMatchObject({ total: 5, applied: 3, failed: [] });
    expect(error.inFlight).toEqual([3, 4].map((index) => ({ index, award: input[index], mayHaveBeenApplied: false })));
    expect(error.cause).toBeInstanceOf(HubConnectionError);
    expect(error.message).toBe(
      "campaign stopped: the hub did not answer within outageTimeout (Connection to http://hub.test failed: ECONNREFUSED): 3 applied, 0 skipped, 0 failed of 5 read. " +
        "Run it again once the hub is back (with the same journal, only awards not recorded as applied are sent)",
    );
  });

  it("an abort during the pause settles at once, as aborted", async () => {
    const controller = new AbortController();
    const hub = flakyHub({ after: 2, downMs: 60_000 });
    const run = awardMany(awards(10), hub.send, { concurrency: 2, signal: controller.signal }, campaignContext);
    setTimeout(() => controller.abort(new Error("Ctrl-C")), 300);
    const started = performance.now();
    const error = await refusal(run);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ name: "CampaignStoppedError", reason: "aborted" });
    expect(error.summary).toMatchObject({ applied: 2, failed: [] });
    expect(error.inFlight.map((award) => award.index)).toEqual([2, 3]);
  });

  it("outageTimeout is checked with the other options: a number of milliseconds ≥ 0", async () => {
    for (const outageTimeout of [-1, Number.NaN, "60s"]) {
      const error = await awardMany(awards(1), async () => undefined, { outageTimeout } as never, campaignContext).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubValidationError);
      expect((error as HubValidationError).message).toBe("Invalid campaign options: outageTimeout: outageTimeout must be a number of milliseconds ≥ 0");
    }
  });
});
