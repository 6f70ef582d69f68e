import { parseArgs } from "node:util";
import { stat } from "node:fs/promises";
import { HubAbortError } from "../../core/errors/hub-abort-error";
import { awardMany } from "../../server/campaign/award-many";
import { campaignContext } from "../../server/campaign/campaign-context";
import { FileJournal } from "../../server/campaign/file-journal";
import type { CampaignProgress, CampaignSummary } from "../../server/campaign/types";
import { HubServerClient } from "../../server/node";
import { connection, connectionOptions } from "../credentials";
import { describeError } from "../describe-error";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";
import { progressView } from "../progress";
import { countRows, formatOf, readAwards, type RowTracker, type UnreadableRow } from "../read-awards";

export const awardOptions = {
  ...connectionOptions,
  file: { type: "string", short: "f" },
  format: { type: "string" },
  concurrency: { type: "string" },
  journal: { type: "string" },
  "dry-run": { type: "boolean" },
  json: { type: "boolean" },
} as const;


interface Failure {
  line: number | undefined;
  index?: number;
  ref?: string;
  error: Record<string, unknown>;
}

/** `public-hub award --file awards.csv`: a campaign, with progress, a summary, and exit 0/1/2. */
export async function awardCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: awardOptions, strict: true });
  const path = values.file;
  if (!path) throw new UsageError("award needs --file <awards.csv | awards.jsonl> (or --file - with --format)");
  const format = formatOf(path, values.format);
  const concurrency = Number(values.concurrency ?? 16);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError(`--concurrency must be an integer ≥ 1, not "${values.concurrency}"`);
  if (path !== "-" && !(await stat(path).catch(() => undefined))?.isFile()) throw new UsageError(`cannot read ${path}`);
  const dryRun = values["dry-run"] ?? false;
  // A dry run needs no key: it sends nothing.
  const conn = dryRun ? undefined : await connection(values, io.env, true);

  const unreadable: UnreadableRow[] = [];
  const tracker: RowTracker = { lines: new WeakMap(), unreadable: (row) => void unreadable.push(row) };
  const view = progressView(io, await countRows(path, format));
  let latest: CampaignProgress | undefined;
  const onProgress = (progress: CampaignProgress) => {
    latest = progress;
    view.update(progress, unreadable.length);
  };
  const options = { concurrency, onProgress, ...(io.signal ? { signal: io.signal } : {}) };
  const started = performance.now();
  let summary: CampaignSummary;
  try {
    const awards = readAwards(path, format, tracker);
    if (conn) {
      const client = new HubServerClient(conn);
      summary = await client.awardMany(awards, { ...options, ...(values.journal ? { journal: values.journal } : {}) });
    } else {
      const hub = values.hub ?? io.env.HUB_SLUG;
      const journal = values.journal ? await FileJournal.open(values.journal, { invalid: campaignContext.invalid, ...(hub ? { hub } : {}) }) : undefined;
      const send = () => Promise.reject(new Error("dry run: nothing is sent"));
      summary = await awardMany(awards, send, { ...options, dryRun: true, ...(journal ? { journal } : {}) }, campaignContext);
    }
  } catch (error) {
    view.stop();
    if (!(error instanceof HubAbortError)) throw error;
    const resume = values.journal ? "run the same command again to resume" : "without --journal, a run again resends everything (safe: each ref is applied once)";
    println(io.stderr, `Interrupted: ${latest?.applied ?? 0} applied, ${latest?.done ?? 0} settled; ${resume}.`);
    return EXIT.interrupted;
  }
  view.stop();

  const failures: Failure[] = [
    ...unreadable.map((row) => ({ line: row.line, error: { name: "UnreadableRow", message: row.message } })),
    ...summary.failed.map(({ index, award, error }) => ({
      line: tracker.lines.get(award),
      index,
      ...(typeof award?.ref === "string" ? { ref: award.ref } : {}),
      error: describeError(error),
    })),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const total = summary.total + unreadable.length;
  const elapsedMs = Math.round(performance.now() - started);
  if (values.json) {
    printJson(io.stdout, { dryRun, total, applied: summary.applied, skipped: summary.skipped, failed: failures, elapsedMs });
  } else {
    const seconds = (elapsedMs / 1000).toFixed(1);
    println(io.stdout, dryRun
      ? `Dry run: ${summary.applied} to send, ${summary.skipped} already done or repeated, ${failures.length} invalid, of ${total} rows. Nothing was sent.`
      : `Applied ${summary.applied}, skipped ${summary.skipped}, failed ${failures.length}, of ${total} awards in ${seconds} s.`);
    for (const failure of failures.slice(0, 50)) {
      println(io.stdout, `  line ${failure.line ?? "?"}${failure.ref ? ` (ref ${failure.ref})` : ""}: ${failure.error.name}: ${failure.error.message}`);
    }
    if (failures.length > 50) println(io.stdout, `  … and ${failures.length - 50} more (--json lists them all)`);
  }
  if (failures.length === 0) return EXIT.ok;
  return dryRun ? EXIT.usage : EXIT.failed;
}
