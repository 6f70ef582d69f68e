// Repeats and conflicts are found among many refs (the table of refs grows many times over), and
// each conflict says where the ref was first met.
import { describe, expect, it } from "vitest";
import { RefConflictError, type AwardInput, type JournalEntry } from "public-hub-sdk/server";
import { awardMany, dryRunAwards } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";

const award = (i: number, amount = 1): AwardInput => ({ wallet: `0x${i.toString(16)}`, amount, ref: `season-7:${i}` });

describe("refs among many", () => {
  it("30,000 refs, 10,000 from the journal: every repeat skipped, every changed award a conflict named by where its ref was first met", async () => {
    // The journal's entries carry the fingerprints a real run wrote: a run of awards 0–9,999.
    const written: JournalEntry[] = [];
    await awardMany(Array.from({ length: 10_000 }, (_, i) => award(i)), async () => undefined, { journal: { load: () => [], record: (e) => void written.push(e) } }, campaignContext);
    const input = [
      ...Array.from({ length: 30_000 }, (_, i) => award(i)), // 10,000 journaled, 20,000 new
      ...Array.from({ length: 30_000 }, (_, i) => award(i)), // all repeats
      award(5, 2), // changed, journaled ref
      award(25_000, 2), // changed, ref of this run
    ];
    const summary = await dryRunAwards(input, { journal: { load: () => written, record: () => undefined } }, campaignContext);
    expect(summary).toMatchObject({ total: 60_002, wouldSend: 20_000, skipped: 40_000 });
    expect(summary.failed.map(({ index, error }) => ({ index, ref: (error as RefConflictError).ref, firstSeenIn: (error as RefConflictError).firstSeenIn }))).toEqual([
      { index: 60_000, ref: "season-7:5", firstSeenIn: "journal" },
      { index: 60_001, ref: "season-7:25000", firstSeenIn: "run" },
    ]);
  });
});
