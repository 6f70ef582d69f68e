/**
 * Reads a campaign file, the CLI's format: CSV with a header (`wallet,amount,reason,ref` or
 * `wallet,kind,ref`) or JSON Lines of award objects. Yields each award with its line number, or
 * the problem found on that line; `checkAwardFile` reads the whole file and lists every problem.
 */
// @ts-nocheck

import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { parse } from "csv-parse";
import { HubValidationError, parseAward, type AwardInput } from "public-hub-sdk/server";

/** A campaign file that must not be enqueued: its bad lines, each with its line number. */
export class AwardFileError extends Error {
  override name = "AwardFileError" as const;
  constructor(
    readonly path: string,
    readonly problems: readonly string[],
  ) {
    const more = problems.length > 20 ? `\n  …and ${problems.length - 20} more` : "";
    super(`${path}: ${problems.length} problem(s), nothing enqueued\n  ${problems.slice(0, 20).join("\n  ")}${more}`);
  }
}

/** One line of the file: the award it holds, or why it holds none. */
export type AwardLine = { line: number; award: AwardInput } | { line: number; problem: string };

const HEADERS = [new Set(["wallet", "amount", "reason", "ref"]), new Set(["wallet", "amount", "ref"]), new Set(["wallet", "kind", "ref"])];

/** JSON Lines when the name says so (`.jsonl`, `.ndjson`), CSV otherwise. */
export function readAwards(path: string): AsyncGenerator<AwardLine> {
  return /\.(jsonl|ndjson)$/i.test(path) ? readJsonLines(path) : readCsv(path);
}

async function* readJsonLines(path: string): AsyncGenerator<AwardLine> {
  let line = 0;
  for await (const text of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    line++;
    if (text.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      yield { line, problem: "not valid JSON" };
      continue;
    }
    yield check(line, value);
  }
}

async function* readCsv(path: string): AsyncGenerator<AwardLine> {
  let header: string[] | undefined;
  const parser = createReadStream(path).pipe(parse({ trim: true, skip_empty_lines: true, info: true, relax_column_count: true }));
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (!header) {
      header = record;
      if (!HEADERS.some((set) => set.size === header!.length && header!.every((name) => set.has(name)))) {
        throw new AwardFileError(path, [`line ${info.lines}: the header must be wallet,amount,reason,ref or wallet,kind,ref (got ${record.join(",")})`]);
      }
      continue;
    }
    if (record.length !== header.length) {
      yield { line: info.lines, problem: `${record.length} fields, the header has ${header.length}` };
      continue;
    }
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const cell = record[i]!;
      // An empty reason is no reason; an amount is a number, and a cell that is not one stays text so the check names it.
      if (name === "reason" && cell === "") return;
      row[name] = name === "amount" && cell !== "" && Number.isFinite(Number(cell)) ? Number(cell) : cell;
    });
    yield check(info.lines, row);
  }
}

function check(line: number, value: unknown): AwardLine {
  try {
    return { line, award: parseAward(value) };
  } catch (error) {
    if (!(error instanceof HubValidationError)) throw error;
    return { line, problem: error.issues.map((issue) => issue.message).join("; ") };
  }
}

/**
 * Reads the whole file and returns the number of awards, or throws {@link AwardFileError} listing
 * the bad lines and refs used twice: nothing should be enqueued from a file with a mistake in it.
 */
export async function checkAwardFile(path: string): Promise<number> {
  const problems: string[] = [];
  const firstLineOfRef = new Map<string, number>();
  let count = 0;
  for await (const entry of readAwards(path)) {
    if ("problem" in entry) {
      problems.push(`line ${entry.line}: ${entry.problem}`);
      continue;
    }
    const earlier = firstLineOfRef.get(entry.award.ref);
    if (earlier !== undefined) problems.push(`line ${entry.line}: ref ${JSON.stringify(entry.award.ref)} already used on line ${earlier}`);
    else firstLineOfRef.set(entry.award.ref, entry.line);
    count++;
  }
  if (problems.length > 0) throw new AwardFileError(path, problems);
  return count;
}
