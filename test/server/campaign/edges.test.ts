import { appendFileSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { CampaignStoppedError, type AwardInput, type CampaignProgress, type CampaignSummary, type JournalEntry } from "public-hub-sdk/server";
import { awardMany, dryRunAwards } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";
import { FileJournal } from "../../../src/server/campaign/file-journal";

const awards = (count: number): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `e-${i}` }));
const indexOf = (award: AwardInput) => Number(award.ref.slice(2));
const ok = async () => undefined;
const refusal = (run: Promise<unknown>) => run.then(() => expect.unreachable(), (e: unknown) => e as HubValidationError);
const emptySummary: CampaignSummary = { total: 0, applied: 0, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false };

describe("the progress rate", () => {
  /** Runs one award at a time, award i settling at `times[i]` ms after the start; gives each progress's rate and elapsed time. */
  async function ratesAt(times: number[]) {
    let now = 0;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const seen: CampaignProgress[] = [];
    const send = async (award: AwardInput) => {
      now = times[indexOf(award)]!;
    };
    await awardMany(awards(times.length), send, { concurrency: 1, onProgress: (p) => seen.push(p) }, campaignContext);
    vi.restoreAllMocks();
    expect(seen.map((p) => p.elapsedMs)).toEqual(times);
    expect(seen.map((p) => p.done)).toEqual(times.map((_, i) => i + 1));
    return seen.map((p) => p.rate);
  }

  it("is awards per second since the oldest sample of the last 5 s, sampled every 250 ms, and 0 with no time elapsed", async () => {
    // Samples kept: start {0, 0}; {250, 3}; {5250, 5}. At 5250 the sample of 250 is exactly 5 s old and
    // stays; at 5400 it is the oldest one younger than 5 s past the start sample, which goes.
    expect(await ratesAt([0, 100, 250, 300, 5250, 5400])).toEqual([0, 2000 / 100, 3000 / 250, 4000 / 300, 5000 / 5250, 3000 / 5150]);
  });

  it("drops samples older than 5 s and counts from the one after them", async () => {
    // Samples: {0,0}, {250,3}, {5300,4}; at 5300 the start sample goes (250 is 5050 ms old).
    expect(await ratesAt([0, 100, 250, 5300])).toEqual([0, 20, 12, 1000 / 5050]);
  });
});

describe("awardMany's in-flight count", () => {
  it("a journal line that cannot be written takes its award out of flight, and the campaign fails with its error", async () => {
    const seen: CampaignProgress[] = [];
    const journal = {
      load: () => [],
      // e-0's line fails once both awards are sent (a timer later), e-1's is written after that.
      record: (entry: JournalEntry) => new Promise<void>((resolve, reject) => (entry.ref === "e-0" ? setTimeout(() => reject(new Error("disk full")), 1) : setTimeout(resolve, 5))),
    };
    await expect(awardMany(awards(2), ok, { concurrency: 2, journal, onProgress: (p) => seen.push(p) }, campaignContext)).rejects.toThrow(new Error("disk full"));
    expect(seen.map(({ done, applied, inFlight }) => ({ done, applied, inFlight }))).toEqual([{ done: 1, applied: 1, inFlight: 0 }]);
  });
});

describe("a send cut short by the campaign's signal", () => {
  it("rejecting with undefined is an award in flight that may have been applied", async () => {
    const caller = new AbortController();
    const [award] = awards(1) as [AwardInput];
    const send = () => {
      caller.abort("enough");
      return Promise.reject(undefined);
    };
    const error = (await awardMany([award], send, { signal: caller.signal }, campaignContext).catch((e: unknown) => e)) as CampaignStoppedError;
    expect(error).toBeInstanceOf(CampaignStoppedError);
    expect(error.inFlight).toEqual([{ index: 0, award, mayHaveBeenApplied: true }]);
    expect(error.message).toBe(
      "campaign aborted: 0 applied, 0 skipped, 0 failed of 1 read; 1 award in flight may have been applied: a run again (with the same journal) settles them through their ref",
    );
  });
});

describe("an error with `applied` that is no HubSchemaError", () => {
  it("is a failure of the award, not an applied mismatch", async () => {
    const error = Object.assign(new Error("half done"), { applied: true });
    const summary = await awardMany(awards(1), () => Promise.reject(error), {}, campaignContext);
    expect(summary).toEqual({ ...emptySummary, total: 1, failed: [{ index: 0, award: awards(1)[0], error }] });
    expect(campaignContext.appliedMismatch(undefined)).toBe(false);
  });
});

describe("a journal opened from a path", () => {
  it("is closed only when it has a close method", async () => {
    const recorded: JournalEntry[] = [];
    const context = { ...campaignContext, openJournal: async () => ({ load: () => [], record: (entry: JournalEntry) => void recorded.push(entry) }) as never };
    const summary = await awardMany(awards(1), ok, { journal: "./no-close.journal" }, context);
    expect(summary).toEqual({ ...emptySummary, total: 1, applied: 1 });
    expect(recorded.map((e) => e.ref)).toEqual(["e-0"]);
  });

  it("without a file system is refused, naming the Node build", async () => {
    const error = await refusal(awardMany(awards(1), ok, { journal: "./x.journal" }, campaignContext));
    expect(error.message).toBe("Invalid campaign options: journal: a journal path needs the Node build of public-hub-sdk/server; pass a CampaignJournal object here");
  });
});

describe("the journal's fingerprint", () => {
  it("is the 53-bit cyrb53 of the award's JSON with sorted keys, in base 36", async () => {
    const recorded: JournalEntry[] = [];
    await awardMany([{ wallet: "0xabc", amount: 5, ref: "fp-1" }], ok, { journal: { load: () => [], record: (entry) => void recorded.push(entry) } }, campaignContext);
    // cyrb53('{"amount":5,"ref":"fp-1","wallet":"0xabc"}') by the reference implementation (bryc).
    expect(recorded).toEqual([{ ref: "fp-1", hash: "d84mmc4nm7", status: "applied" }]);
  });
});

describe("the input reader", () => {
  /** An iterator that counts its calls, with `count` awards. */
  function counted(count: number) {
    const calls = { next: 0, return: 0 };
    const items = awards(count);
    const iterable: Iterable<AwardInput> = {
      [Symbol.iterator]: () => ({
        next: () => {
          calls.next++;
          const value = items.shift();
          return value ? { done: false, value } : { done: true, value: undefined };
        },
        return: () => {
          calls.return++;
          return { done: true, value: undefined };
        },
      }),
    };
    return { calls, iterable };
  }

  it("asks an input that ended for nothing more, and does not close it", async () => {
    const { calls, iterable } = counted(3);
    const summary = await awardMany(iterable, ok, { concurrency: 2 }, campaignContext);
    expect(summary).toEqual({ ...emptySummary, total: 3, applied: 3 });
    expect(calls).toEqual({ next: 4, return: 0 });
  });

  it("closes an input stopped early once", async () => {
    const { calls, iterable } = counted(5);
    const caller = new AbortController();
    const send = async (award: AwardInput) => {
      if (award.ref === "e-1") caller.abort("enough");
    };
    await expect(awardMany(iterable, send, { concurrency: 1, signal: caller.signal }, campaignContext)).rejects.toMatchObject({ reason: "aborted" });
    expect(calls).toEqual({ next: 2, return: 1 });
  });

  it("runs the finally of a generator stopped early", async () => {
    let closed = false;
    function* input() {
      try {
        yield* awards(5);
      } finally {
        closed = true;
      }
    }
    const caller = new AbortController();
    const send = async () => caller.abort("enough");
    await expect(awardMany(input(), send, { concurrency: 1, signal: caller.signal }, campaignContext)).rejects.toMatchObject({ reason: "aborted" });
    expect(closed).toBe(true);
  });
});

describe("CampaignStoppedError's message", () => {
  it("counts duplicates in words: none, one, several", () => {
    const aborted = (duplicates: number) => CampaignStoppedError.aborted({ summary: { ...emptySummary, total: 9, applied: 4, duplicates, skipped: 1 }, cause: "stop", inFlight: [] }).message;
    expect(aborted(0)).toBe("campaign aborted: 4 applied, 1 skipped, 0 failed of 9 read");
    expect(aborted(1)).toBe("campaign aborted: 4 applied, 1 duplicate, 1 skipped, 0 failed of 9 read");
    expect(aborted(2)).toBe("campaign aborted: 4 applied, 2 duplicates, 1 skipped, 0 failed of 9 read");
  });
});

describe("campaign option checks", () => {
  it("a journal object without load is refused", async () => {
    const error = await refusal(awardMany(awards(1), ok, { journal: { record: () => undefined } as never }, campaignContext));
    expect(error.issues).toEqual([{ path: ["journal"], code: "invalid_type", message: "journal must be a file path or a CampaignJournal (with load and record methods)" }]);
  });

  it("dryRun given to a dry run is an unknown option, not the awardMany advice", async () => {
    const error = await refusal(dryRunAwards(awards(1), { dryRun: true } as never, campaignContext));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.message).toMatch(/^Invalid dry run options: /);
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ path: ["dryRun"] });
    expect(error.issues[0]!.message).not.toContain("awardMany has no dryRun");
  });

  it.each([5, "options"])("options of %j are refused as not an object", async (options) => {
    const error = await refusal(awardMany(awards(1), ok, options as never, campaignContext));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: [], code: "invalid_type", message: "must be an object" }]);
  });

  it("awardMany's dryRun refusal says what to use instead", async () => {
    const error = await refusal(awardMany(awards(1), ok, { dryRun: false } as never, campaignContext));
    expect(error.message).toBe("Invalid campaign options: dryRun: awardMany has no dryRun: use dryRunAwards, which sends nothing");
  });
});

describe("FileJournal", () => {
  const dir = mkdtempSync(join(tmpdir(), "hub-journal-edges-"));
  let n = 0;
  const freshPath = () => join(dir, `j${n++}.journal`);
  const line = (ref: string) => `${JSON.stringify({ ref, hash: "h", status: "applied" })}\n`;
  const loadAll = async (journal: FileJournal) => {
    const entries: JournalEntry[] = [];
    for await (const e of journal.load()) entries.push(e);
    return entries;
  };

  it("cuts nothing from a journal with no torn line: lines appended after the load are kept", async () => {
    const path = freshPath();
    const first = await FileJournal.open(path, { durable: false });
    await loadAll(first);
    await first.record({ ref: "a", hash: "h", status: "applied" });
    await first.close();
    const second = await FileJournal.open(path, { durable: false });
    expect(await loadAll(second)).toEqual([{ ref: "a", hash: "h", status: "applied" }]);
    appendFileSync(path, line("other-1")); // another writer, after the load
    await second.record({ ref: "b", hash: "h", status: "applied" });
    appendFileSync(path, line("other-2")); // and after the first write
    await second.record({ ref: "c", hash: "h", status: "applied" });
    await second.close();
    expect(readFileSync(path, "utf8").split("\n").slice(1)).toEqual([line("a"), line("other-1"), line("b"), line("other-2"), line("c"), ""].map((l) => l.trim()));
  });

  it("without process.getBuiltinModule, opening fails with the module it needs", async () => {
    const saved = process.getBuiltinModule;
    (process as { getBuiltinModule?: unknown }).getBuiltinModule = undefined;
    let opening: Promise<unknown>;
    try {
      opening = FileJournal.open(freshPath());
    } finally {
      process.getBuiltinModule = saved;
    }
    await expect(opening).rejects.toThrow(new Error("no node:fs/promises"));
  });

  it("without a global process, opening fails with the module it needs", async () => {
    const saved = Object.getOwnPropertyDescriptor(globalThis, "process")!;
    Object.defineProperty(globalThis, "process", { value: undefined, configurable: true, writable: true });
    let opening: Promise<unknown>;
    try {
      opening = FileJournal.open(freshPath());
    } finally {
      Object.defineProperty(globalThis, "process", saved);
    }
    await expect(opening).rejects.toThrow(new Error("no node:fs/promises"));
  });
});
