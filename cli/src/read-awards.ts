import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import type { AwardInput } from "public-hub-sdk/server";
import { unreadable as cannotRead } from "./files";
import { UsageError } from "./io";

/** A row that is not even an award (not JSON): reported with its line, never sent. */
export interface UnreadableRow {
  line: number;
  message: string;
}

export type AwardFormat = "csv" | "jsonl";

/**
 * What the reader tells the campaign about each row: its line in the file (kept in a WeakMap, so
 * only rows still referenced, i.e. in flight or failed, hold memory), and rows it could not read.
 */
export interface RowTracker {
  lines: WeakMap<object, number>;
  unreadable(row: UnreadableRow): void;
}

const COLUMNS = new Set(["wallet", "amount", "reason", "kind", "ref"]);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** The format from `--format`, else the file's extension. */
export function formatOf(path: string, flag: string | undefined): AwardFormat {
  const format = flag ?? (/\.csv$/i.test(path) ? "csv" : /\.(jsonl|ndjson)$/i.test(path) ? "jsonl" : undefined);
  if (format === "csv" || format === "jsonl") return format;
  throw new UsageError(flag ? `--format must be csv or jsonl, not "${flag}"` : `cannot tell the format of ${path}: use a .csv or .jsonl name, or --format`);
}

/** Streams the awards of a file, one row at a time (memory does not grow with the file). */
export function readAwards(path: string, format: AwardFormat, tracker: RowTracker): AsyncIterable<AwardInput> {
  return format === "csv" ? readCsv(path, tracker) : readJsonLines(path, tracker);
}

async function* readCsv(path: string, tracker: RowTracker): AsyncGenerator<AwardInput> {
  const parser = openStream(path).pipe(
    parse({
      columns: checkHeader,
      info: true,
      skip_empty_lines: true,
      trim: true,
      bom: true,
      // A malformed row (wrong cell count, stray quote) is that row's failure, not the file's.
      skip_records_with_error: true,
      on_skip: (error) => {
        if (error) tracker.unreadable({ line: (error as { lines?: number }).lines ?? 0, message: error.message });
        return undefined;
      },
    }),
  );
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      const award: Record<string, unknown> = {};
      for (const [column, cell] of Object.entries(record)) {
        // An empty cell is an absent field; an empty wallet or ref is kept, to read "must not be empty".
        if (cell === "" && column !== "wallet" && column !== "ref") continue;
        award[column] = column === "amount" && NUMBER.test(cell) ? Number(cell) : cell;
      }
      tracker.lines.set(award, info.lines);
      yield award as unknown as AwardInput;
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const { code, lines } = error as { code?: string; lines?: number };
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") throw cannotRead(path, error);
    throw new UsageError(`${path}${lines ? `, line ${lines}` : ""}: ${(error as Error).message}`);
  }
}

function checkHeader(header: string[]): string[] {
  const columns = header.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !COLUMNS.has(name));
  const ok = unknown.length === 0 && columns.includes("wallet") && columns.includes("ref") && (columns.includes("amount") || columns.includes("kind"));
  if (!ok) {
    const problem = unknown.length > 0 ? `unknown column${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}` : "missing columns";
    throw new UsageError(`CSV header "${header.join(",")}": ${problem}; expected wallet,amount,reason,ref or wallet,kind,ref`);
  }
  return columns;
}

async function* readJsonLines(path: string, tracker: RowTracker): AsyncGenerator<AwardInput> {
  const lines = createInterface({ input: openStream(path), crlfDelay: Infinity });
  let line = 0;
  try {
    for await (const text of lines) {
      line++;
      if (text.trim() === "") continue;
      let award: unknown;
      try {
        award = JSON.parse(text);
      } catch (error) {
        tracker.unreadable({ line, message: `not JSON: ${(error as Error).message}` });
        continue;
      }
      if (typeof award === "object" && award !== null) tracker.lines.set(award, line);
      else tracker.unreadable({ line, message: "not a JSON object" });
      if (typeof award === "object" && award !== null) yield award as AwardInput;
    }
  } catch (error) {
    const { code } = error as { code?: string };
    throw code ? cannotRead(path, error) : error;
  } finally {
    lines.close();
  }
}

function openStream(path: string) {
  return path === "-" ? process.stdin : createReadStream(path);
}

/** Data rows in the file, by counting newlines (a quick pass, for the progress total). */
export async function countRows(path: string, format: AwardFormat): Promise<number | undefined> {
  if (path === "-") return undefined;
  let newlines = 0;
  let last = 10;
  try {
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) newlines++;
      last = chunk.at(-1) ?? last;
    }
  } catch {
    return undefined; // the reader reports it
  }
  const lines = newlines + (last === 10 ? 0 : 1);
  return Math.max(0, format === "csv" ? lines - 1 : lines);
}
