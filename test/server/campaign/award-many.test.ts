import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { delay, http } from "msw";
import { describe, expect, it, vi } from "vitest";
import { BadRequestError, HubAbortError, HubValidationError } from "public-hub-sdk";
import { dryRunAwards, RefConflictError, type AwardInput, type CampaignProgress, type JournalEntry } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";
import { useHubMock } from "../../helpers/mock-server";
import { SECRET, serverClient } from "../../helpers/server-client";

/** What an aborted campaign rejects with (a CampaignStoppedError). */
const ABORTED = { name: "CampaignStoppedError", reason: "aborted" } as const;

const hub = useHubMock();
const { mock } = hub;
const client = () => serverClient(mock.baseUrl);
const awards = (count: number, prefix = "c"): AwardInput[] =>
  Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: i + 1, ref: `${prefix}-${i}` }));
const sentRefs = () => mock.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body).ref as string);

describe("awardMany", () => {
  it("applies every award once and reports the counts", async () => {
    const summary = await client().awardMany(awards(40), { concurrency: 8 });
    expect(summary).toEqual({ total: 40, applied: 40, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false });
    expect(mock.ledger.map((a) => a.ref).sort()).toEqual(awards(40).map((a) => a.ref).sort());
    expect(mock.balanceOf("alpha", "0x39")).toBe(40);
  });

  it("streams: never holds more than `concurrency` awards read but unsettled", async () => {
    let read = 0;
    let settled = 0;
    let most = 0;
    function* input() {
      for (const award of awards(200)) {
        read++;
        most = Math.max(most, read - settled);
        yield award;
      }
    }
    const send = async () => {
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
      settled++;
    };
    const summary = await awardMany(input(), send, { concurrency: 5 }, campaignContext);
    expect(summary.applied).toBe(200);
    expect(most).toBeLessThanOrEqual(5);
    expect(most).toBeGreaterThan(1); // and it did run in parallel
  });

  it("reads an async iterable one item at a time", async () => {
    let pending = 0;
    let overlapped = false;
    const input: AsyncIterable<AwardInput> = {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          async next() {
            if (++pending > 1) overlapped = true;
            await new Promise((resolve) => setTimeout(resolve, 1));
            pending--;
            return i < 30 ? { done: false, value: awards(30)[i++]! } : { done: true, value: undefined };
          },
        };
      },
    };
    const summary = await client().awardMany(input, { concurrency: 8 });
    expect(summary.applied).toBe(30);
    expect(overlapped).toBe(false);
  });

  it("a bad award is a failure of that award, with its index and a HubValidationError; nothing of it is sent", async () => {
    const input = [...awards(3), { wallet: "", amount: -1, ref: "bad" } as AwardInput, ...awards(3, "d")];
    const summary = await client().awardMany(input);
    expect(summary.applied).toBe(6);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]).toMatchObject({ index: 3, award: input[3] });
    expect(summary.failed[0]!.error).toBeInstanceOf(HubValidationError);
    expect(sentRefs()).not.toContain("bad");
  });

  it("a server refusal fails that award only and keeps its typed error", async () => {
    mock.failNext(1, { status: 400, contentType: "application/json", body: '{"error":{"code":"invalid_award","message":"no"}}' });
    const summary = await client().awardMany(awards(10), { concurrency: 1 });
    expect(summary.applied).toBe(9);
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.error).toBeInstanceOf(BadRequestError);
    expect(summary.failed[0]!.index).toBe(0);
  });

  it("rides through rate limits with the client's retries", async () => {
    mock.rateLimitNext(5, 0);
    const summary = await client().awardMany(awards(20), { concurrency: 4 });
    expect(summary.applied).toBe(20);
    expect(mock.ledger).toHaveLength(20);
  });

  it("the same ref twice: identical is skipped, different is a RefConflictError", async () => {
    const [a, b] = awards(2) as [AwardInput & { amount: number }, AwardInput];
    const sameAsA: AwardInput = { ref: a.ref, amount: a.amount, wallet: a.wallet }; // other key order, same award
    const clash = { ...b, amount: 999 } as AwardInput;
    const summary = await client().awardMany([a, b, sameAsA, clash], { concurrency: 1 });
    expect(summary).toMatchObject({ total: 4, applied: 2, skipped: 1 });
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]!.index).toBe(3);
    expect(summary.failed[0]!.error).toBeInstanceOf(RefConflictError);
    expect(summary.failed[0]!.error).toMatchObject({ ref: b.ref, firstSeenIn: "run" });
    expect(sentRefs()).toEqual([a.ref, b.ref]);
    expect(mock.balanceOf("alpha", b.wallet)).toBe(2);
  });

  it("reports progress: done rises to total; total unknown for a generator until its end", async () => {
    const seen: CampaignProgress[] = [];
    function* input() {
      yield* awards(12);
    }
    await client().awardMany(input(), { concurrency: 3, onProgress: (p) => seen.push(p) });
    expect(seen.at(0)!.total).toBeUndefined();
    expect(seen.at(-1)).toMatchObject({ done: 12, total: 12, applied: 12, failed: 0, inFlight: 0 });
    expect(seen.map((p) => p.done)).toEqual([...seen.map((p) => p.done)].sort((x, y) => x - y));
    const fromArray: CampaignProgress[] = [];
    await client().awardMany(awards(3, "e"), { onProgress: (p) => fromArray.push(p) });
    expect(fromArray[0]!.total).toBe(3);
  });

  it("abort: stops sending, rejects as aborted (CampaignStoppedError), and never applies an award twice", async () => {
    const controller = new AbortController();
    const input = awards(100);
    const pending = client().awardMany(input, {
      concurrency: 4,
      signal: controller.signal,
      onProgress: (p) => p.done === 10 && controller.abort(new Error("stop")),
    });
    await expect(pending).rejects.toMatchObject(ABORTED);
    const refs = mock.ledger.map((a) => a.ref);
    expect(new Set(refs).size).toBe(refs.length);
    expect(sentRefs().length).toBeLessThan(20);
  });

  it("an already aborted signal sends nothing", async () => {
    await expect(client().awardMany(awards(3), { signal: AbortSignal.abort() })).rejects.toMatchObject(ABORTED);
    expect(sentRefs()).toEqual([]);
  });

  it("a journal object: records what was applied, and a later run skips it", async () => {
    const entries: JournalEntry[] = [];
    const journal = { load: () => [...entries], record: (entry: JournalEntry) => void entries.push(entry) };
    await client().awardMany(awards(5), { journal });
    expect(entries.map((e) => e.ref)).toEqual(expect.arrayContaining(awards(5).map((a) => a.ref)));
    const again = await client().awardMany([...awards(5), ...awards(2, "new")], { journal });
    expect(again).toMatchObject({ total: 7, applied: 2, skipped: 5 });
    expect(sentRefs().filter((ref) => ref.startsWith("c-"))).toHaveLength(5); // not resent
  });

  it("a changed award under a ref the journal shows as applied is a conflict", async () => {
    const journal = { load: () => [] as JournalEntry[], record: () => undefined };
    const entries: JournalEntry[] = [];
    await client().awardMany(awards(1), { journal: { ...journal, record: (e) => void entries.push(e) } });
    const summary = await client().awardMany([{ ...awards(1)[0]!, amount: 50 } as AwardInput], { journal: { ...journal, load: () => entries } });
    expect(summary.failed[0]!.error).toMatchObject({ name: "RefConflictError", firstSeenIn: "journal" });
  });

  it("a journal that cannot record stops the campaign with its error", async () => {
    const broken = new Error("disk full");
    const journal = { load: () => [], record: () => Promise.reject(broken) };
    await expect(client().awardMany(awards(40), { journal, concurrency: 2 })).rejects.toBe(broken);
    expect(mock.ledger.length).toBeLessThanOrEqual(4);
  });

  it("a throwing onProgress stops the campaign with its error; the journal shows only applied awards", async () => {
    const entries: JournalEntry[] = [];
    const journal = { load: () => [], record: (entry: JournalEntry) => void entries.push(entry) };
    const bug = new Error("bug in onProgress");
    const onProgress = (p: CampaignProgress) => {
      if (p.done === 3) throw bug;
    };
    await expect(client().awardMany(awards(30), { journal, concurrency: 2, onProgress })).rejects.toBe(bug);
    const applied = mock.ledger.map((a) => a.ref);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(entries.every((e) => applied.includes(e.ref))).toBe(true);
    expect(mock.ledger.length).toBeLessThan(30);
  });

  it("an input that throws stops the campaign with its error", async () => {
    function* input() {
      yield* awards(2);
      throw new Error("bad file");
    }
    await expect(client().awardMany(input())).rejects.toThrow("bad file");
  });

  it("dry run: validates and detects conflicts, sends nothing", async () => {
    const input = [...awards(3), { ...awards(1)[0]!, amount: 7 } as AwardInput, { wallet: "0x1" } as AwardInput];
    const summary = await dryRunAwards(input);
    expect(summary).toMatchObject({ total: 5, applied: 0, wouldSend: 3, skipped: 0, dryRun: true });
    expect(summary.failed.map((f) => f.error.name)).toEqual(["RefConflictError", "HubValidationError"]);
    expect(mock.requests).toHaveLength(0);
  });

  it("refuses a dryRun option rather than sending for real: dryRunAwards is the one way", async () => {
    const error = await client().awardMany(awards(2), { dryRun: true } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path: ["dryRun"] })]);
    expect(mock.requests).toHaveLength(0);
  });

  it("refuses bad options before reading anything", async () => {
    await expect(client().awardMany(awards(1), { concurrency: 0 })).rejects.toBeInstanceOf(HubValidationError);
    await expect(awardMany(awards(1), async () => undefined, { journal: "./x.journal" }, campaignContext)).rejects.toThrow(/Node build/);
    expect(mock.requests).toHaveLength(0);
  });

  it("needs no options", async () => {
    await expect(client().awardMany(awards(3, "no-options"))).resolves.toEqual({ total: 3, applied: 3, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false });
  });
});

describe("HubServerClient.awardMany", () => {
  it("an abort reaches the award under way: a send the server never answers does not hold the campaign", async () => {
    const { server } = hub;
    const controller = new AbortController();
    let reached: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    server.use(
      http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, async () => {
        reached();
        await delay("infinite");
        return new Response(null);
      }),
    );
    const run = client().awardMany(awards(1), { signal: controller.signal });
    await arrived;
    controller.abort(new Error("stop"));
    await expect(run).rejects.toMatchObject(ABORTED);
  });

  it("a journal given as a path is closed when the campaign ends", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "hub-campaign-")), "run.journal");
    const probe = await (await import("node:fs/promises")).open(path, "w");
    const write = vi.spyOn(Object.getPrototypeOf(probe) as { write: () => unknown }, "write");
    await probe.close();
    await client().awardMany(awards(2), { journal: path });
    const handles = write.mock.contexts as Array<{ fd: number }>;
    expect(handles.length).toBeGreaterThan(0);
    expect(handles.map((h) => h.fd)).toEqual(handles.map(() => -1));
  });

  it("a journal path is opened for this client's hub, with the SDK's typed errors", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "hub-campaign-")), "other-hub.journal");
    writeFileSync(path, `${JSON.stringify({ journal: "public-hub-sdk/campaign-journal", version: 1, hub: "beta" })}\n`);
    const error = await client()
      .awardMany(awards(1), { journal: path })
      .then(() => expect.unreachable(), (e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as Error).message).toContain('not "alpha"');
    expect(sentRefs()).toEqual([]);
  });
});
