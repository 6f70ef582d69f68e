// A whole last journal line without its newline (an editor's save) is an entry: kept, and the next
// write goes on a line of its own.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AwardInput, JournalEntry } from "public-hub-sdk/server";
import { FileJournal } from "../../../src/server/campaign/file-journal";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock } = useHubMock();
const dir = mkdtempSync(join(tmpdir(), "hub-last-line-"));
let n = 0;
const freshPath = () => join(dir, `j${n++}.journal`);
const HEADER = JSON.stringify({ journal: "public-hub-sdk/campaign-journal", version: 1, hub: "alpha" });
const entry = (ref: string): JournalEntry => ({ ref, hash: "abc", status: "applied" });
const loadAll = async (journal: FileJournal) => {
  const entries: JournalEntry[] = [];
  for await (const e of journal.load()) entries.push(e);
  return entries;
};

describe("a journal whose last line has no newline", () => {
  it("keeps that whole last entry, and writes the next one on a line of its own", async () => {
    const path = freshPath();
    writeFileSync(path, `${HEADER}\n${JSON.stringify(entry("a"))}\n${JSON.stringify(entry("b"))}`);
    const journal = await FileJournal.open(path, { hub: "alpha" });
    expect(await loadAll(journal)).toEqual([entry("a"), entry("b")]);
    await journal.record(entry("c"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe(`${HEADER}\n${[entry("a"), entry("b"), entry("c")].map((e) => JSON.stringify(e)).join("\n")}\n`);
    expect(await loadAll(await FileJournal.open(path, { hub: "alpha" }))).toEqual([entry("a"), entry("b"), entry("c")]);
  });

  it("a header alone without its newline is a journal with no entries yet", async () => {
    const path = freshPath();
    writeFileSync(path, HEADER);
    const journal = await FileJournal.open(path, { hub: "alpha" });
    expect(await loadAll(journal)).toEqual([]);
    await journal.record(entry("a"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe(`${HEADER}\n${JSON.stringify(entry("a"))}\n`);
  });

  it("a campaign run again does not resend that award", async () => {
    const path = freshPath();
    const awards: AwardInput[] = Array.from({ length: 3 }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `editor-${i}` }));
    await serverClient(mock.baseUrl).awardMany(awards.slice(0, 2), { journal: path, concurrency: 1 });
    writeFileSync(path, readFileSync(path, "utf8").trimEnd()); // opened and saved in an editor that drops the last newline
    const again = await serverClient(mock.baseUrl).awardMany(awards, { journal: path, concurrency: 1 });
    expect(again).toMatchObject({ total: 3, applied: 1, duplicates: 0, skipped: 2, failed: [] });
    expect(mock.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body).ref as string)).toEqual(["editor-0", "editor-1", "editor-2"]);
  });

  it("a torn last line (not JSON) is still cut before the next write", async () => {
    const path = freshPath();
    writeFileSync(path, `${HEADER}\n${JSON.stringify(entry("a"))}\n{"ref":"b","ha`);
    const journal = await FileJournal.open(path, { hub: "alpha" });
    expect(await loadAll(journal)).toEqual([entry("a")]);
    await journal.record(entry("c"));
    await journal.close();
    expect(readFileSync(path, "utf8")).toBe(`${HEADER}\n${JSON.stringify(entry("a"))}\n${JSON.stringify(entry("c"))}\n`);
  });
});
