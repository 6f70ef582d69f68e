// An aborted campaign keeps its summary and names the awards it cut short (issue 23, item 3).
import { describe, expect, it } from "vitest";
import { CampaignStoppedError, type AwardInput, type CampaignJournal, type JournalEntry } from "public-hub-sdk/server";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock } = useHubMock();
const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `abort-${i}` }));
const memoryJournal = (entries: JournalEntry[]): CampaignJournal => ({ load: () => entries, record: (entry) => void entries.push(entry) });

describe("aborting awardMany", () => {
  it("rejects with CampaignStoppedError (aborted): the summary so far, and the awards in flight, applied but unanswered", async () => {
    const controller = new AbortController();
    let hanging = 0;
    // Awards 0–2 are answered; the next ones reach the server (MSW's fetch applies them) and their
    // answers never come, until the abort: once the campaign's 4 slots hang, Ctrl-C.
    const answered = new Set(["abort-0", "abort-1", "abort-2"]);
    const fetch: typeof globalThis.fetch = async (input, init) => {
      const response = await globalThis.fetch(input, init);
      if (answered.has(JSON.parse(String(init!.body)).ref)) return response;
      if (++hanging === 4) setTimeout(() => controller.abort(new Error("Ctrl-C")), 0);
      return new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason)));
    };
    const entries: JournalEntry[] = [];
    const input = awards(10);
    const error = await serverClient(mock.baseUrl, { fetch })
      .awardMany(input, { concurrency: 4, journal: memoryJournal(entries), signal: controller.signal })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CampaignStoppedError);
    const stopped = error as CampaignStoppedError;
    expect(stopped.reason).toBe("aborted");
    expect(stopped.summary).toEqual({ total: 7, applied: 3, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false });
    expect(stopped.inFlight).toEqual([3, 4, 5, 6].map((index) => ({ index, award: input[index], mayHaveBeenApplied: true })));
    expect(stopped.mayHaveBeenApplied).toBe(true);
    expect(stopped.message).toBe("campaign aborted: 3 applied, 0 skipped, 0 failed of 7 read; 4 awards in flight may have been applied: a run again (with the same journal) settles them through their ref");
    expect((stopped.cause as Error).message).toBe("Ctrl-C");
    // The server applied 7; the journal shows the 3 answered.
    expect(mock.ledger).toHaveLength(7);
    expect(entries.map((entry) => entry.ref).sort()).toEqual(["abort-0", "abort-1", "abort-2"]);

    // A run again with the same journal settles the 4 through their ref (the hub answers them as
    // duplicates, journaled too), and sends the rest.
    const again = await serverClient(mock.baseUrl).awardMany(input, { concurrency: 4, journal: memoryJournal(entries) });
    expect(again).toMatchObject({ total: 10, applied: 3, duplicates: 4, skipped: 3, failed: [] });
    expect(entries).toHaveLength(10);
    expect(mock.ledger.map((award) => award.ref).sort()).toEqual(input.map((award) => award.ref).sort());
  });

  it("an award still waiting for its turn when aborted was not sent, and says so", async () => {
    const controller = new AbortController();
    // One attempt at a time: the second award waits in the rate gate while the first hangs.
    const fetch: typeof globalThis.fetch = (_input, init) => {
      setTimeout(() => controller.abort(), 0);
      return new Promise<Response>((_resolve, reject) => init!.signal!.addEventListener("abort", () => reject(init!.signal!.reason)));
    };
    const input = awards(2);
    const error = (await serverClient(mock.baseUrl, { fetch, maxConcurrency: 1 })
      .awardMany(input, { concurrency: 2, signal: controller.signal })
      .catch((e: unknown) => e)) as CampaignStoppedError;
    expect(error.reason).toBe("aborted");
    expect(error.inFlight).toEqual([
      { index: 0, award: input[0], mayHaveBeenApplied: true },
      { index: 1, award: input[1], mayHaveBeenApplied: false },
    ]);
    expect(error.message).toMatch(/; 1 award in flight may have been applied:/);
  });

  it("an already aborted signal: CampaignStoppedError with an empty summary, nothing sent", async () => {
    const error = (await serverClient(mock.baseUrl).awardMany(awards(3), { signal: AbortSignal.abort() }).catch((e: unknown) => e)) as CampaignStoppedError;
    expect(error).toBeInstanceOf(CampaignStoppedError);
    expect({ reason: error.reason, summary: error.summary, inFlight: error.inFlight, mayHaveBeenApplied: error.mayHaveBeenApplied }).toEqual({
      reason: "aborted",
      summary: { total: 0, applied: 0, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false },
      inFlight: [],
      mayHaveBeenApplied: false,
    });
    expect(mock.requests).toEqual([]);
  });
});
