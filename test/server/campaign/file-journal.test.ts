import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { campaignContext } from "../../../src/server/campaign/errors";
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

describe("FileJournal, line by line", () => {
  const header = (hub: string | null, version = 1) => `${JSON.stringify({ journal: "public-hub-sdk/campaign-journal", version, hub })}\n`;
  const line = (value: object) => `${JSON.stringify(value)}\n`;
  const failure = async (path: string, options = {}) => (await loadAll(await FileJournal.open(path, options)).catch((e: unknown) => e)) as Error;

  it("names the file and the line, with a plain Error by default", async () => {
    const path = freshPath();
    writeFileSync(path, header("alpha") + line({ ref: "a", hash: "h", status: "applied" }) + line({ ref: "b", hash: "h", status: "pending" }));
    const error = await failure(path);
    expect(error.constructor).toBe(Error);
    expect(error.message).toBe(`Invalid campaign journal: ${path}, line 3 is not a journal entry`);
  });

  it("with the campaign's errors, the message names the file as given and the line, never a dotted path like season.journal.1", async () => {
    const path = freshPath();
    writeFileSync(path, header("alpha") + line({ ref: 1, hash: "h", status: "applied" }));
    const error = (await failure(path, { invalid: campaignContext.invalid })) as HubValidationError;
    expect(error.issues).toEqual([{ path: [], code: "custom", message: `${path}, line 2 is not a journal entry` }]);
    expect(error.message).toBe(`Invalid campaign journal: ${path}, line 2 is not a journal entry`);
    expect(error.message).not.toContain(`${path}.2`);
  });

  it.each([
    ["another version", header("alpha", 2)],
    ["another kind", line({ journal: "other", version: 1, hub: "alpha" })],
    ["not JSON", "wallet,amount\n"],
  ])("refuses a header of %s", async (_name, first) => {
    const path = freshPath();
    writeFileSync(path, first);
    expect((await failure(path)).message).toBe(`Invalid campaign journal: ${path}, line 1 is not a campaign journal (no "public-hub-sdk/campaign-journal" header)`);
  });

  it.each([
    ["a hash that is not a string", { ref: "a", hash: 1, status: "applied" }],
    ["no status", { ref: "a", hash: "h" }],
    ["a line that is not JSON", null],
  ])("refuses an entry with %s", async (_name, value) => {
    const path = freshPath();
    writeFileSync(path, header(null) + (value === null ? "{oops\n" : line(value)));
    expect((await failure(path)).message).toBe(`Invalid campaign journal: ${path}, line 2 is not a journal entry`);
  });

  it("a journal without a hub, or opened without one, fits any hub; one of the same hub fits", async () => {
    const anyHub = freshPath();
    writeFileSync(anyHub, header(null) + line({ ref: "a", hash: "h", status: "applied" }));
    expect(await loadAll(await FileJournal.open(anyHub, { hub: "alpha" }))).toEqual([{ ref: "a", hash: "h", status: "applied" }]);
    const alpha = freshPath();
    writeFileSync(alpha, header("alpha"));
    expect(await loadAll(await FileJournal.open(alpha))).toEqual([]);
    expect(await loadAll(await FileJournal.open(alpha, { hub: "alpha" }))).toEqual([]);
    expect((await failure(alpha, { hub: "beta" })).message).toBe(`Invalid campaign journal: ${alpha}, line 1 was written for hub "alpha", not "beta"`);
  });

  it("keeps only ref, hash and status of an entry", async () => {
    const path = freshPath();
    writeFileSync(path, header(null) + line({ ref: "a", hash: "h", status: "applied", extra: 1 }));
    expect(await loadAll(await FileJournal.open(path))).toEqual([{ ref: "a", hash: "h", status: "applied" }]);
  });

  it("record() without load() first repairs a torn last line, then appends", async () => {
    const path = freshPath();
    writeFileSync(path, header("alpha") + line({ ref: "a", hash: "h", status: "applied" }) + '{"ref":"torn"');
    const journal = await FileJournal.open(path, { hub: "alpha", durable: false });
    await journal.record(entry("b"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe(header("alpha") + line({ ref: "a", hash: "h", status: "applied" }) + line({ ref: "b", hash: "abc", status: "applied" }));
  });

  it.each([true, false])("records one after the other (durable: %s): each record() made after the last resolved is written", async (durable) => {
    const path = freshPath();
    const journal = await FileJournal.open(path, { durable });
    await loadAll(journal);
    for (const ref of ["s1", "s2", "s3"]) await journal.record(entry(ref));
    await journal.close();
    expect((await loadAll(await FileJournal.open(path))).map((e) => e.ref)).toEqual(["s1", "s2", "s3"]);
  });

  it("a new journal written without durability has the same content", async () => {
    const path = freshPath();
    const journal = await FileJournal.open(path, { durable: false });
    await loadAll(journal);
    await journal.record(entry("x"));
    await journal.record(entry("y"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe(header(null) + line({ ref: "x", hash: "abc", status: "applied" }) + line({ ref: "y", hash: "abc", status: "applied" }));
  });

  it("a journal that cannot be opened for reading fails with that error", async () => {
    const error = await failure(dir); // a directory
    expect((error as { code?: string }).code).toMatch(/^E/);
  });
});

describe("FileJournal: opening, closing and syncing", () => {
  it("a path that cannot be opened (not ENOENT) is an error, not an empty journal", async () => {
    const file = freshPath();
    writeFileSync(file, "");
    const journal = await FileJournal.open(join(file, "inside.journal"));
    await expect(loadAll(journal)).rejects.toMatchObject({ code: "ENOTDIR" });
  });

  it("a record that cannot be written rejects", async () => {
    const journal = await FileJournal.open(join(dir, "no-such-dir", "j.journal"));
    await expect(journal.record(entry("a"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("close() waits for a record still being written", async () => {
    const path = freshPath();
    const journal = await FileJournal.open(path, { durable: false });
    const recorded = journal.record(entry("a"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toContain('"ref":"a"');
    await recorded;
  });

  it("durable by default: each write is synced, and a new file's directory too; durable: false syncs nothing", async () => {
    const probe = await (await import("node:fs/promises")).open(dir, "r");
    const handleProto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void>; sync: () => Promise<void> };
    await probe.close();
    const datasync = vi.spyOn(handleProto, "datasync");
    const sync = vi.spyOn(handleProto, "sync");
    const durable = await FileJournal.open(freshPath());
    await loadAll(durable);
    await durable.record(entry("a"));
    await durable.record(entry("b"));
    await durable.close();
    expect(datasync).toHaveBeenCalledTimes(2);
    expect(sync).toHaveBeenCalledTimes(1); // the directory, once, when the file is created
    datasync.mockClear();
    sync.mockClear();
    const fast = await FileJournal.open(freshPath(), { durable: false });
    await loadAll(fast);
    await fast.record(entry("a"));
    await fast.close();
    expect(datasync).not.toHaveBeenCalled();
    expect(sync).not.toHaveBeenCalled();
  });
});

describe("FileJournal: file handles", () => {
  it("load() closes the file it read", async () => {
    const path = freshPath();
    writeFileSync(path, `${JSON.stringify({ journal: "public-hub-sdk/campaign-journal", version: 1, hub: null })}\n`);
    const probe = await (await import("node:fs/promises")).open(path, "r");
    const read = vi.spyOn(Object.getPrototypeOf(probe) as { read: () => unknown }, "read");
    await probe.close();
    await loadAll(await FileJournal.open(path));
    const handles = read.mock.contexts as Array<{ fd: number }>;
    expect(handles.length).toBeGreaterThan(0);
    expect(handles.map((h) => h.fd)).toEqual(handles.map(() => -1));
  });
});

describe("FileJournal: read only until the first record", () => {
  it("a dry run leaves a journal with a half-written last line (a live run appending to it) as it is", async () => {
    const { dryRunAwards } = await import("public-hub-sdk/server");
    const path = freshPath();
    const text = `${JSON.stringify({ journal: "public-hub-sdk/campaign-journal", version: 1, hub: "alpha" })}\n{"ref":"a","hash":"h","status":"applied"}\n{"ref":"b","ha`;
    writeFileSync(path, text);
    const summary = await dryRunAwards([{ wallet: "0x1", amount: 1, ref: "c" }], { journal: path, hub: "alpha" });
    expect(summary).toMatchObject({ wouldSend: 1, failed: [] });
    expect(readFileSync(path, "utf8")).toBe(text);
  });
});
