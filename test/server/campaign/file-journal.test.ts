import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { campaignContext } from "../../../src/server/campaign/campaign-context";
import { FileJournal } from "../../../src/server/campaign/file-journal";
import type { JournalEntry } from "public-hub-sdk/server";

const dir = mkdtempSync(join(tmpdir(), "hub-journal-"));
let n = 0;
const freshPath = () => join(dir, `j${n++}.journal`);
const entry = (ref: string): JournalEntry => ({ ref, hash: "abc", status: "applied" });
const loadAll = async (journal: FileJournal) => {
  const entries: JournalEntry[] = [];
  for await (const e of journal.load()) entries.push(e);
  return entries;
};

describe("FileJournal", () => {
  it("writes a header naming the hub, then one JSON line per entry", async () => {
    const path = freshPath();
    const journal = await FileJournal.open(path, { hub: "alpha" });
    expect(await loadAll(journal)).toEqual([]);
    await Promise.all([journal.record(entry("a")), journal.record(entry("b")), journal.record(entry("c"))]);
    await journal.close();
    const lines = readFileSync(path, "utf8").split("\n");
    expect(JSON.parse(lines[0]!)).toEqual({ journal: "public-hub-sdk/campaign-journal", version: 1, hub: "alpha" });
    expect(lines.slice(1)).toEqual(['{"ref":"a","hash":"abc","status":"applied"}', '{"ref":"b","hash":"abc","status":"applied"}', '{"ref":"c","hash":"abc","status":"applied"}', ""]);
    expect(await loadAll(await FileJournal.open(path, { hub: "alpha" }))).toEqual([entry("a"), entry("b"), entry("c")]);
  });

  it("a missing file loads as empty and is only created by the first record", async () => {
    const path = freshPath();
    const journal = await FileJournal.open(path);
    await loadAll(journal);
    expect(() => statSync(path)).toThrow();
    await journal.record(entry("x"));
    await journal.close();
    expect(statSync(path).size).toBeGreaterThan(0);
  });

  it("drops a torn last line from the file, and appends after the last whole line", async () => {
    const path = freshPath();
    const first = await FileJournal.open(path, { hub: "alpha" });
    await loadAll(first);
    await first.record(entry("a"));
    await first.close();
    appendFileSync(path, '{"ref":"b","hash":"ab'); // a crash mid-write
    const second = await FileJournal.open(path, { hub: "alpha" });
    expect(await loadAll(second)).toEqual([entry("a")]);
    await second.record(entry("c"));
    await second.close();
    expect(await loadAll(await FileJournal.open(path))).toEqual([entry("a"), entry("c")]);
  });

  it("reads a journal larger than its read buffer", async () => {
    const path = freshPath();
    const journal = await FileJournal.open(path, { durable: false });
    await loadAll(journal);
    const refs = Array.from({ length: 30_000 }, (_, i) => `season-7:0x${i.toString(16).padStart(40, "0")}`);
    await Promise.all(refs.map((ref) => journal.record(entry(ref))));
    await journal.close();
    expect(statSync(path).size).toBeGreaterThan(2 << 20);
    expect((await loadAll(await FileJournal.open(path))).map((e) => e.ref)).toEqual(refs);
  });

  it("refuses a file that is not a journal, a corrupt line, and a journal of another hub", async () => {
    const notJournal = freshPath();
    writeFileSync(notJournal, "wallet,amount,ref\n0xabc,10,r1\n");
    await expect(loadAll(await FileJournal.open(notJournal))).rejects.toThrow(/line 1 is not a campaign journal/);
    const corrupt = freshPath();
    writeFileSync(corrupt, '{"journal":"public-hub-sdk/campaign-journal","version":1,"hub":"alpha"}\n{"ref":"a"\n{"ref":"b","hash":"x","status":"applied"}\n');
    await expect(loadAll(await FileJournal.open(corrupt, { invalid: campaignContext.invalid }))).rejects.toBeInstanceOf(HubValidationError);
    await expect(loadAll(await FileJournal.open(corrupt, { invalid: campaignContext.invalid }))).rejects.toThrow(/line 2 is not a journal entry/);
    const beta = freshPath();
    writeFileSync(beta, '{"journal":"public-hub-sdk/campaign-journal","version":1,"hub":"beta"}\n');
    await expect(loadAll(await FileJournal.open(beta, { hub: "alpha" }))).rejects.toThrow(/written for hub "beta"/);
  });
});
