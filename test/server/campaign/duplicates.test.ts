// A duplicate is an outcome (issue 30): the hub already had the ref. A campaign counts it apart,
// journals it as settled (a run again never sends it), and never counts it as failed.
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { CampaignStoppedError, type AwardInput, type CampaignProgress, type JournalEntry } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const hub = useHubMock();
const { mock } = hub;
const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `dup-${i}` }));
const memoryJournal = (entries: JournalEntry[]) => ({ load: () => [...entries], record: (entry: JournalEntry) => void entries.push(entry) });

describe("duplicates in a campaign", () => {
  it("a send that resolves duplicate: true is counted apart, journaled, and a run again sends nothing", async () => {
    const held = new Set(["dup-1", "dup-3"]);
    const sent: string[] = [];
    const send = async (award: AwardInput) => {
      sent.push(award.ref);
      const duplicate = held.has(award.ref);
      held.add(award.ref);
      return { duplicate };
    };
    const entries: JournalEntry[] = [];
    const seen: CampaignProgress[] = [];
    const summary = await awardMany(awards(5), send, { concurrency: 2, journal: memoryJournal(entries), onProgress: (p) => seen.push(p) }, campaignContext);
    expect(summary).toEqual({ total: 5, applied: 3, duplicates: 2, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false });
    expect(seen.at(-1)).toMatchObject({ done: 5, applied: 3, duplicates: 2, failed: 0 });
    expect(entries.map((e) => e.ref).sort()).toEqual(awards(5).map((a) => a.ref));
    sent.length = 0;
    const again = await awardMany(awards(5), send, { journal: memoryJournal(entries) }, campaignContext);
    expect(again).toMatchObject({ applied: 0, duplicates: 0, skipped: 5, failed: [] });
    expect(sent).toEqual([]);
  });

  it("a hub that answers 409 duplicate-ref for a used ref: a resumed campaign ends with no failure, and a run again sends nothing", async () => {
    // The first run was cut by a crash after the hub applied 0–3: their answers were lost.
    for (const award of awards(4)) await serverClient(mock.baseUrl).awardPoints(award);
    hub.server.use(
      http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, async ({ request }) => {
        const { ref } = (await request.clone().json()) as { ref: string };
        if (!mock.ledger.some((a) => a.ref === ref)) return undefined; // the mock applies it
        return HttpResponse.json({ type: "https://hub.example/problems/duplicate-ref", title: "Duplicate ref", status: 409 }, { status: 409, headers: { "content-type": "application/problem+json" } });
      }),
    );
    const entries: JournalEntry[] = [];
    const summary = await serverClient(mock.baseUrl).awardMany(awards(10), { concurrency: 3, journal: memoryJournal(entries) });
    expect(summary).toMatchObject({ total: 10, applied: 6, duplicates: 4, skipped: 0, failed: [] });
    expect(entries).toHaveLength(10);
    const before = mock.requests.length;
    const again = await serverClient(mock.baseUrl).awardMany(awards(10), { journal: memoryJournal(entries) });
    expect(again).toMatchObject({ applied: 0, duplicates: 0, skipped: 10, failed: [] });
    expect(mock.requests.length).toBe(before);
    expect(mock.ledger).toHaveLength(10);
  });

  it("an award whose own first answer was lost, then answered as a duplicate, is this campaign's: applied", async () => {
    mock.loseNextWrites(1);
    const summary = await serverClient(mock.baseUrl).awardMany(awards(2), { concurrency: 1 });
    expect(summary).toMatchObject({ applied: 2, duplicates: 0, failed: [] });
  });

  it("an abort's message counts the duplicates", () => {
    const summary = { total: 3, applied: 1, duplicates: 2, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false };
    expect(CampaignStoppedError.aborted({ summary, cause: "Ctrl-C", inFlight: [] }).message).toBe("campaign aborted: 1 applied, 2 duplicates, 0 skipped, 0 failed of 3 read");
  });
});
