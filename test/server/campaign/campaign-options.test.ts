import { getEventListeners } from "node:events";
import { describe, expect, it, vi } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { RefConflictError, type AwardInput, type CampaignProgress, type JournalEntry } from "public-hub-sdk/server";
import { awardMany, dryRunAwards as dryRunWith } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";

/** What an aborted campaign rejects with (a CampaignStoppedError). */
const ABORTED = { name: "CampaignStoppedError", reason: "aborted" } as const;

const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `o-${i}` }));
const ok = async () => undefined;
const refusal = (run: Promise<unknown>) => run.then(() => expect.unreachable(), (e: unknown) => e as HubValidationError);

describe("campaign options", () => {
  it.each([0, -1, 1.5, "2", Number.NaN, 10_001])("concurrency %j is refused with its issue", async (concurrency) => {
    const error = await refusal(awardMany(awards(1), ok, { concurrency: concurrency as number }, campaignContext));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["concurrency"], code: "invalid_type", message: "concurrency must be an integer from 1 to 10000" }]);
  });

  it.each([true, false])("awardMany refuses dryRun: %j (dryRunAwards is the one way), and sends nothing", async (dryRun) => {
    const send = vi.fn(ok);
    const error = await refusal(awardMany(awards(2), send, { dryRun } as never, campaignContext));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["dryRun"], code: "custom", message: "awardMany has no dryRun: use dryRunAwards, which sends nothing" }]);
    expect(send).not.toHaveBeenCalled();
  });

  it("concurrency 1 sends one award at a time", async () => {
    let active = 0;
    let most = 0;
    const send = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 1));
      active--;
    };
    expect(await awardMany(awards(5), send, { concurrency: 1 }, campaignContext)).toMatchObject({ applied: 5 });
    expect(most).toBe(1);
  });

  it("uses 16 workers by default", async () => {
    let active = 0;
    let most = 0;
    const send = async () => {
      active++;
      most = Math.max(most, active);
      await new Promise((resolve) => setTimeout(resolve, 5));
      active--;
    };
    await awardMany(awards(40), send, {}, campaignContext);
    expect(most).toBe(16);
  });

  it.each([
    ["an empty path", "", "invalid_type", "journal is empty (is its environment variable set?)"],
    ["a number", 5, "invalid_type", "journal must be a file path or a CampaignJournal (with load and record methods)"],
    ["a path without the Node build", "./x.journal", "custom", "a journal path needs the Node build of public-hub-sdk/server; pass a CampaignJournal object here"],
  ])("a journal of %s is refused", async (_name, journal, code, message) => {
    const error = await refusal(awardMany(awards(1), ok, { journal: journal as string }, campaignContext));
    expect(error.issues).toEqual([{ path: ["journal"], code, message }]);
  });

  it("a send that throws a non-Error fails that award with an Error saying what was thrown", async () => {
    const summary = await awardMany(awards(1), () => Promise.reject("nope"), {}, campaignContext);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.error).toEqual(new Error("nope"));
    expect(summary.failed[0]).toMatchObject({ index: 0, award: awards(1)[0] });
  });

  it("progress counts each kind, with the total when known and a rate", async () => {
    const seen: CampaignProgress[] = [];
    const input: AwardInput[] = [...awards(2), awards(1)[0]!, { wallet: "0x0", amount: 9, ref: "o-0" }];
    const summary = await awardMany(input, ok, { concurrency: 1, onProgress: (p) => seen.push(p) }, campaignContext);
    expect(summary).toEqual({ total: 4, applied: 2, duplicates: 0, wouldSend: 0, skipped: 1, failed: [expect.objectContaining({ index: 3 })], mismatched: [], dryRun: false });
    expect(summary.failed[0]!.error).toBeInstanceOf(RefConflictError);
    expect(seen.map(({ done, total, applied, skipped, failed, inFlight }) => ({ done, total, applied, skipped, failed, inFlight }))).toEqual([
      { done: 1, total: 4, applied: 1, skipped: 0, failed: 0, inFlight: 0 },
      { done: 2, total: 4, applied: 2, skipped: 0, failed: 0, inFlight: 0 },
      { done: 3, total: 4, applied: 2, skipped: 1, failed: 0, inFlight: 0 },
      { done: 4, total: 4, applied: 2, skipped: 1, failed: 1, inFlight: 0 },
    ]);
    for (const p of seen) {
      expect(p.rate).toBeGreaterThanOrEqual(0);
      expect(p.elapsedMs).toBeGreaterThanOrEqual(0);
    }
  });

  it("the total option wins over the input's size", async () => {
    const seen: Array<number | undefined> = [];
    await awardMany(awards(2), ok, { total: 10, concurrency: 1, onProgress: (p) => seen.push(p.total) }, campaignContext);
    expect(seen).toEqual([10, 10, 2]); // until the input ends, which corrects it
  });
});

describe("the campaign's signal", () => {
  it("leaves no listener on the caller's signal", async () => {
    const controller = new AbortController();
    await awardMany(awards(3), ok, { signal: controller.signal }, campaignContext);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("RefConflictError", () => {
  it("says where the ref was first used, and is not sent", () => {
    expect(new RefConflictError({ ref: "r1", firstSeenIn: "run" })).toMatchObject({
      name: "RefConflictError",
      ref: "r1",
      firstSeenIn: "run",
      message: 'ref "r1" was already used earlier in this campaign for a different award; not sent',
    });
    expect(new RefConflictError({ ref: "r1", firstSeenIn: "journal" }).message).toBe('ref "r1" was already used by an earlier run (journal) for a different award; not sent');
  });
});

describe("awardMany's bookkeeping", () => {
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
  const inFlights = (seen: CampaignProgress[]) => seen.map((p) => p.inFlight);

  it("a refused option names the campaign options", async () => {
    expect((await refusal(awardMany(awards(1), ok, { concurrency: 0 }, campaignContext))).message).toMatch(/^Invalid campaign options/);
    expect((await refusal(awardMany(awards(1), ok, { journal: "" }, campaignContext))).message).toMatch(/^Invalid campaign options/);
  });

  it("in flight counts sends under way: never negative, none left at the end (dry run, failures, journal)", async () => {
    const dry: CampaignProgress[] = [];
    await dryRunWith(awards(3), { onProgress: (p) => dry.push(p) }, campaignContext);
    expect(inFlights(dry)).toEqual([0, 0, 0]);
    const failing: CampaignProgress[] = [];
    const send = async (award: AwardInput) => {
      if (award.ref === "o-0") throw new Error("refused");
    };
    await awardMany(awards(3), send, { concurrency: 1, onProgress: (p) => failing.push(p) }, campaignContext);
    expect(inFlights(failing)).toEqual([0, 0, 0]);
    const journaled: CampaignProgress[] = [];
    const journal = { load: () => [], record: () => sleep(1) };
    await awardMany(awards(3), ok, { concurrency: 1, journal, onProgress: (p) => journaled.push(p) }, campaignContext);
    // The next send may start while a line is written: the award counts once its line is.
    expect(inFlights(journaled).every((n) => n >= 0 && n <= 1)).toBe(true);
    expect(journaled.at(-1)).toMatchObject({ done: 3, applied: 3, inFlight: 0 });
  });

  it("the rate is positive once awards are done, and the elapsed time is this campaign's", async () => {
    const seen: CampaignProgress[] = [];
    const before = performance.now();
    await awardMany(awards(5), () => sleep(2), { concurrency: 1, onProgress: (p) => seen.push(p) }, campaignContext);
    const took = performance.now() - before;
    const last = seen.at(-1)!;
    expect(last.rate).toBeGreaterThan(0);
    expect(Number.isFinite(last.rate)).toBe(true);
    expect(last.elapsedMs).toBeGreaterThan(0);
    expect(last.elapsedMs).toBeLessThanOrEqual(took);
  });

  it("each send gets the campaign's signal; an abort mid-send is an interruption, not a failure", async () => {
    const controller = new AbortController();
    const seen: CampaignProgress[] = [];
    const send = (_award: AwardInput, { signal }: { signal: AbortSignal }) =>
      new Promise<void>((_resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason));
        controller.abort(new Error("stop"));
      });
    const run = awardMany(awards(3), send, { concurrency: 1, signal: controller.signal, onProgress: (p) => seen.push(p) }, campaignContext);
    await expect(run).rejects.toMatchObject(ABORTED);
    expect(seen).toEqual([]);
  });

  it("the abort error carries the caller's reason as its cause", async () => {
    const reason = new Error("stop");
    const error = await awardMany(awards(1), ok, { signal: AbortSignal.abort(reason) }, campaignContext).catch((e: unknown) => e);
    expect(error).toMatchObject(ABORTED);
    expect((error as Error).cause).toBe(reason);
  });

  it("an award interrupted by the abort leaves the in-flight count", async () => {
    const controller = new AbortController();
    const seen: CampaignProgress[] = [];
    const send = (award: AwardInput, { signal }: { signal: AbortSignal }) =>
      new Promise<void>((resolve, reject) => {
        signal.addEventListener("abort", () => (award.ref === "o-0" ? reject(signal.reason) : setTimeout(resolve, 5)));
        if (award.ref === "o-1") controller.abort(new Error("stop"));
      });
    const run = awardMany(awards(2), send, { concurrency: 2, signal: controller.signal, onProgress: (p) => seen.push(p) }, campaignContext);
    await expect(run).rejects.toMatchObject(ABORTED);
    expect(seen).toEqual([expect.objectContaining({ applied: 1, inFlight: 0 })]);
  });

  it("an award read while the campaign is aborted is not sent", async () => {
    const controller = new AbortController();
    const sent: string[] = [];
    async function* input() {
      yield awards(2)[0]!;
      controller.abort();
      yield awards(2)[1]!;
    }
    const send = async (award: AwardInput) => void sent.push(award.ref);
    await expect(awardMany(input(), send, { concurrency: 1, signal: controller.signal }, campaignContext)).rejects.toMatchObject(ABORTED);
    expect(sent).toEqual(["o-0"]);
  });

  it("a journal object: records each applied award, is waited for, is not closed, and at most `concurrency` records wait", async () => {
    const recorded: JournalEntry[] = [];
    let waiting = 0;
    let most = 0;
    const close = vi.fn();
    const journal = {
      load: () => [],
      record: async (entry: JournalEntry) => {
        waiting++;
        most = Math.max(most, waiting);
        await sleep(3);
        recorded.push(entry);
        waiting--;
      },
      close,
    };
    const summary = await awardMany(awards(12), ok, { concurrency: 2, journal }, campaignContext);
    expect(summary.applied).toBe(12);
    expect(recorded).toHaveLength(12);
    expect(recorded[0]).toEqual({ ref: "o-0", hash: expect.any(String), status: "applied" });
    expect(most).toBeLessThanOrEqual(2);
    expect(close).not.toHaveBeenCalled();
  });
});
