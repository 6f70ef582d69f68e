// @ts-nocheck
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { FileJournal } from "../../../src/server/campaign/file-journal";

// Where a directory cannot be opened (Windows), a durable journal cannot fsync the new file's name:
// it goes on without that step. Opening a directory works on Linux, so this file fails it.
const dir = mkdtempSync(join(tmpdir(), "hub-journal-dir-"));
vi.mock("node:fs/promises", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs/promises")>();
  const open: typeof fs.open = (path, ...rest) =>
    String(path) === dir ? Promise.reject(Object.assign(new Error("EISDIR: illegal operation on a directory"), { code: "EISDIR" })) : fs.open(path, ...rest);
  return { ...fs, default: { ...fs, open }, open };
});

describe("FileJournal where the directory cannot be opened", () => {
  it("a durable journal still creates its file and records, without syncing the directory", async () => {
    const path = join(dir, "season.journal");
    expect(dirname(path)).toBe(dir);
    const journal = await FileJournal.open(path, { hub: "alpha", durable: true });
    await journal.record({ ref: "r1", hash: "abc", status: "applied" });
    await journal.close();
    expect(readFileSync(path, "utf8").trim().split("\n").slice(1)).toEqual(['{"ref":"r1","hash":"abc","status":"applied"}']);
  });
});
