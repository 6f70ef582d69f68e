// An abort settles the campaign promptly wherever it lands: while the input waits for a row, while
// the journal opens.
import { describe, expect, it, vi } from "vitest";
import { CampaignStoppedError, type AwardInput, type CampaignJournal } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";

const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `abort-${i}` }));
/** What `run` settled with within `ms`, or "pending". */
const within = (run: Promise<unknown>, ms: number) =>
  Promise.race([run.then((value) => ({ value }), (error: unknown) => ({ error })), new Promise((resolve) => setTimeout(() => resolve("pending"), ms))]);

describe("an abort while the input waits for its next row", () => {
  it("settles at once as aborted, with the summary so far, and returns the input's iterator", async () => {
    const controller = new AbortController();
    const rows = awards(3);
    let read = 0;
    let returned = 0;
    // A queue that has nothing more yet: its next() answers when a row arrives, or when it is returned.
    let wake: (result: IteratorResult<AwardInput>) => void = () => undefined;
    const queue: AsyncIterable<AwardInput> = {
      [Symbol.asyncIterator]: () => ({
        next: () => (read < rows.length ? Promise.resolve({ done: false, value: rows[read++]! }) : new Promise((resolve) => (wake = resolve))),
        return: async () => {
          returned++;
          wake({ done: true, value: undefined });
          return { done: true, value: undefined };
        },
      }),
    };
    const sent: string[] = [];
    const run = awardMany(queue, async (award) => void sent.push(award.ref), { concurrency: 2, signal: controller.signal }, campaignContext);
    await vi.waitFor(() => expect(sent).toHaveLength(3));
    controller.abort(new Error("Ctrl-C"));

    const settled = await within(run, 1_000);
    expect(settled).not.toBe("pending");
    const { error } = settled as { error: CampaignStoppedError };
    expect(error).toBeInstanceOf(CampaignStoppedError);
    expect(error.reason).toBe("aborted");
    expect(error.summary).toMatchObject({ total: 3, applied: 3, failed: [] });
    expect(error.inFlight).toEqual([]);
    expect(returned).toBe(1);
  });

  it("an input whose return() never answers does not hold the campaign either", async () => {
    const controller = new AbortController();
    let returned = false;
    const stuck: AsyncIterable<AwardInput> = {
      [Symbol.asyncIterator]: () => ({
        next: () => new Promise(() => undefined),
        return: () => {
          returned = true;
          return new Promise(() => undefined);
        },
      }),
    };
    const run = awardMany(stuck, async () => undefined, { signal: controller.signal }, campaignContext);
    setTimeout(() => controller.abort(), 10);
    const settled = await within(run, 1_000);
    expect(settled).toMatchObject({ error: { name: "CampaignStoppedError", reason: "aborted" } });
    expect(returned).toBe(true);
  });
});

describe("an abort while the journal opens", () => {
  it("nothing is sent, and the call rejects as an aborted campaign; the journal is closed", async () => {
    const controller = new AbortController();
    let closed = false;
    const journal: Required<CampaignJournal> = { load: () => [], record: () => undefined, close: () => void (closed = true) };
    // The abort lands while the campaign waits for its journal file to open.
    const openJournal = async () => {
      controller.abort(new Error("Ctrl-C"));
      return journal;
    };
    const sent: string[] = [];
    const error = await awardMany(awards(20), async (award) => void sent.push(award.ref), { journal: "season.journal", signal: controller.signal }, { ...campaignContext, openJournal }).then(
      () => expect.unreachable("resolved"),
      (e: unknown) => e as CampaignStoppedError,
    );
    expect(error).toBeInstanceOf(CampaignStoppedError);
    expect(error.reason).toBe("aborted");
    expect((error.cause as Error).message).toBe("Ctrl-C");
    expect(error.summary).toMatchObject({ total: 0, applied: 0 });
    expect(sent).toEqual([]);
    expect(closed).toBe(true);
  });
});

describe("an abort while the journal loads", () => {
  it("a journal object whose load never settles: the abort settles the campaign at once, nothing sent", async () => {
    const controller = new AbortController();
    let loads = 0;
    const journal: CampaignJournal = { load: () => (loads++, new Promise(() => undefined)), record: () => undefined };
    const sent: string[] = [];
    const run = awardMany(awards(3), async (award) => void sent.push(award.ref), { signal: controller.signal, journal }, campaignContext);
    await vi.waitFor(() => expect(loads).toBe(1));
    controller.abort(new Error("Ctrl-C"));
    const settled = await within(run, 1_000);
    expect(settled).not.toBe("pending");
    expect((settled as { error: CampaignStoppedError }).error).toMatchObject({ name: "CampaignStoppedError", reason: "aborted" });
    expect(sent).toEqual([]);
  });
});
