import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { RefConflictError, type AwardInput, type CampaignProgress } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/award-many";
import { campaignContext } from "../../../src/server/campaign/campaign-context";

const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `o-${i}` }));
const ok = async () => undefined;
const refusal = (run: Promise<unknown>) => run.then(() => expect.unreachable(), (e: unknown) => e as HubValidationError);

describe("campaign options", () => {
  it.each([0, -1, 1.5, "2", Number.NaN])("concurrency %j is refused with its issue", async (concurrency) => {
    const error = await refusal(awardMany(awards(1), ok, { concurrency: concurrency as number }, campaignContext));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["concurrency"], code: "custom", message: "concurrency must be an integer ≥ 1" }]);
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
    ["an empty path", "", "journal must be a file path or a CampaignJournal"],
    ["a number", 5, "journal must be a file path or a CampaignJournal"],
    ["a path without the Node build", "./x.journal", "a journal path needs the Node build of public-hub-sdk/server; pass a CampaignJournal object here"],
  ])("a journal of %s is refused", async (_name, journal, message) => {
    const error = await refusal(awardMany(awards(1), ok, { journal: journal as string }, campaignContext));
    expect(error.issues).toEqual([{ path: ["journal"], code: "custom", message }]);
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
    expect(summary).toEqual({ total: 4, applied: 2, skipped: 1, failed: [expect.objectContaining({ index: 3 })], dryRun: false });
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
    expect(new RefConflictError("r1", "run")).toMatchObject({
      name: "RefConflictError",
      ref: "r1",
      firstSeenIn: "run",
      message: 'ref "r1" was already used earlier in this campaign for a different award; not sent',
    });
    expect(new RefConflictError("r1", "journal").message).toBe('ref "r1" was already used by an earlier run (journal) for a different award; not sent');
  });
});
