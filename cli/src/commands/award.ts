import { stat } from "node:fs/promises";
import { CampaignStoppedError, dryRunAwards, HubServerClient, type CampaignProgress, type CampaignSummary } from "public-hub-sdk/server";
import { parseFlags } from "../args";
import { connection, connectionOptions } from "../credentials";
import { causeOf, describeError } from "../describe-error";
import { unreadable as cannotRead } from "../files";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";
import { progressView } from "../progress";
import { sdkLog } from "../sdk-log";
import { countRows, formatOf, readAwards, type RowTracker, type UnreadableRow } from "../read-awards";
import { printChecks, runChecks, type Check } from "./doctor";

export const awardOptions = {
  ...connectionOptions,
  file: { type: "string", short: "f" },
  format: { type: "string" },
  concurrency: { type: "string" },
  journal: { type: "string" },
  "max-failures": { type: "string" },
  "outage-timeout": { type: "string" },
  "dry-run": { type: "boolean" },
  check: { type: "boolean" },
  "allow-empty": { type: "boolean" },
  verbose: { type: "boolean" },
  json: { type: "boolean" },
} as const;

interface Failure {
  line: number | undefined;
  index?: number;
  ref?: string;
  error: Record<string, unknown>;
}

/** Failures that share a cause, shown once with their count and first lines. */
interface FailureGroup {
  cause: string;
  count: number;
  message: string;
  lines: Array<number | undefined>;
}

const SHOWN_LINES = 5;

/** Groups failures by cause (see causeOf); a group shows its first failure's message as the example. */
function groupFailures(failures: Failure[]): FailureGroup[] {
  const groups = new Map<string, FailureGroup>();
  for (const failure of failures) {
    const cause = causeOf(failure.error);
    let group = groups.get(cause);
    if (!group) groups.set(cause, (group = { cause, count: 0, message: String(failure.error.message), lines: [] }));
    group.count++;
    if (group.lines.length < SHOWN_LINES) group.lines.push(failure.line);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** `public-hub award --file awards.csv`: a campaign, with progress, a summary, and exit 0/1/2/130. */
export async function awardCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags("award", args, awardOptions);
  const path = values.file;
  if (!path) throw new UsageError("award needs --file <awards.csv | awards.jsonl> (or --file - with --format)");
  const format = formatOf(path, values.format);
  // Checked by awardMany, the one place (a bad value is its HubValidationError: exit 2, nothing sent).
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const outage = number(values["outage-timeout"]);
  const limits = { concurrency: number(values.concurrency), maxFailures: number(values["max-failures"]), ...(outage !== undefined && { outageTimeout: outage * 1000 }) };
  const dryRun = values["dry-run"] ?? false;
  if (values.check && !dryRun) throw new UsageError("--check goes with --dry-run (a real run checks the key with its first awards, and stops early if it is refused)");
  if (path !== "-") {
    const info = await stat(path).catch((error: unknown) => {
      throw cannotRead(path, error);
    });
    if (!info.isFile()) throw cannotRead(path, { code: "EISDIR" });
  }
  // A dry run needs no key: it sends nothing. With --check it runs doctor's checks, which do.
  const conn = dryRun && !values.check ? undefined : await connection(values, io.env, true);
  let checks: Check[] | undefined;
  if (dryRun && conn) {
    checks = await runChecks(conn);
    if (!values.json) printChecks({ ...io, stdout: io.stderr }, checks);
  }

  const unreadable: UnreadableRow[] = [];
  const tracker: RowTracker = { lines: new WeakMap(), unreadable: (row) => void unreadable.push(row) };
  const estimate = await countRows(path, format);
  const view = progressView(io, estimate, dryRun);
  const onProgress = (progress: CampaignProgress) => view.update(progress, unreadable.length);
  // The CLI owns the terminal while the bar runs: the SDK's log goes through it.
  const log = sdkLog(values.verbose ?? false, (line) => view.log(line));
  const signal = io.signal ? { signal: io.signal } : {};
  const journal = values.journal ? { journal: values.journal } : {};
  const started = performance.now();
  let summary: CampaignSummary;
  let stopped: CampaignStoppedError | undefined;
  try {
    const awards = readAwards(path, format, tracker);
    if (conn && !dryRun) {
      const client = new HubServerClient({ baseUrl: conn.baseUrl, clientId: conn.clientId, hub: conn.hub, logger: log.logger, logLevel: log.logLevel, ...(conn.unwrap && { unwrap: conn.unwrap }), ...(conn.profile && { profile: conn.profile }), ...conn.key });
      summary = await client.awardMany(awards, { ...limits, onProgress, ...signal, ...journal });
    } else {
      const hub = values.hub ?? io.env.HUB_SLUG;
      summary = await dryRunAwards(awards, { onProgress, ...signal, ...journal, ...(hub ? { hub } : {}) });
    }
  } catch (error) {
    if (!(error instanceof CampaignStoppedError)) throw error;
    stopped = error;
    summary = error.summary;
  } finally {
    view.stop();
    const told = log.summary();
    if (told) println(io.stderr, told);
  }
  if (stopped?.reason === CampaignStoppedError.ABORTED) return interrupted(io, values, dryRun, stopped, unreadable.length, Math.round(performance.now() - started));

  const failures: Failure[] = [
    ...unreadable.map((row) => ({ line: row.line, error: { name: "UnreadableRow", message: row.message } })),
    ...summary.failed.map(({ index, award, error }) => ({
      line: tracker.lines.get(award),
      index,
      ...(typeof award?.ref === "string" ? { ref: award.ref } : {}),
      error: describeError(error),
    })),
  ].sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  const groups = groupFailures(failures);
  const total = summary.total + unreadable.length;
  const elapsedMs = Math.round(performance.now() - started);
  const checksFailed = checks?.some((check) => check.status === "failed") ?? false;

  if (total === 0) {
    if (values.json) printJson(io.stdout, { nothingToSend: true, dryRun, total: 0, elapsedMs });
    println(io.stderr, `Nothing to send: ${path === "-" ? "stdin" : path} has no award rows${format === "csv" ? " (a header at most)" : ""}.`);
    return values["allow-empty"] ? EXIT.ok : EXIT.usage;
  }

  if (values.json) {
    printJson(io.stdout, {
      dryRun,
      credentialsChecked: dryRun ? checks !== undefined : true,
      ...(checks ? { checks } : {}),
      total,
      ...(dryRun ? { wouldSend: summary.wouldSend } : {}),
      applied: summary.applied,
      ...(conn?.profile?.award?.duplicate === "indistinguishable" && { appliedMayIncludeDuplicates: true }),
      ...(conn?.profile?.award?.conflict === "indistinguishable" && { duplicatesMayIncludeConflicts: true }),
      duplicates: summary.duplicates,
      skipped: summary.skipped,
      failedCount: failures.length,
      failed: failures,
      causes: groups,
      ...(stopped ? { stopped: { reason: stopped.reason, failures: stopped.failures, resumable: values.journal !== undefined } } : {}),
      interrupted: false,
      elapsedMs,
    });
  } else {
    const seconds = (elapsedMs / 1000).toFixed(1);
    // A hub that answers a repeat as it answers a fresh award (its profile says so) cannot tell them apart: neither can we.
    const applied = conn?.profile?.award?.duplicate === "indistinguishable" ? "Applied or already credited" : "Applied";
    println(
      io.stdout,
      dryRun
        ? `Dry run, nothing sent (credentials ${checks ? "checked above" : "not checked: add --check"}): ${summary.wouldSend} would be sent, ${summary.skipped} skipped (already applied or repeated), ${failures.length} invalid, of ${total} rows.`
        : stopped
          ? `Stopped early: ${applied.toLowerCase()} ${summary.applied}, skipped ${summary.skipped}, failed ${failures.length}; ${unsent(estimate, summary.applied + summary.duplicates + summary.skipped + failures.length)} in ${seconds} s.`
          : `${applied} ${summary.applied}, skipped ${summary.skipped}, failed ${failures.length}, of ${total} awards in ${seconds} s.`,
    );
    // "Not sent again" only where a journal records them: without one, a run again sends them (and the hub answers duplicate again).
    // A hub that answers a changed award as it answers a repeat (its profile says so): a duplicate may be either.
    const alike = conn?.profile?.award?.conflict === "indistinguishable" ? "; the hub does not tell a repeat from a changed award: one of these may be a changed award it did not credit" : "";
    if (summary.duplicates > 0) println(io.stdout, `Duplicates ${summary.duplicates}: the hub already had their ref, so each is credited once (not failures${values.journal ? "; journaled, not sent again" : ""}${alike}).`);
    for (const group of groups) {
      const lines = group.lines.map((line) => line ?? "?").join(", ");
      const more = group.count > group.lines.length ? `, and ${group.count - group.lines.length} more` : "";
      println(io.stdout, `  ${group.count} × ${group.cause}: ${group.message}\n    line${group.count > 1 ? "s" : ""} ${lines}${more}`);
    }
    if (failures.length > 0 && groups.some((group) => group.count > group.lines.length)) println(io.stdout, "  (--json lists every failure)");
    if (stopped) {
      const resume = values.journal ? "fix it, then run the same command again: the journal sends only what is not applied" : "fix it, then run again (safe: each ref is applied once)";
      println(
        io.stderr,
        stopped.reason === CampaignStoppedError.OUTAGE
          ? `Stopped: the hub did not answer for the whole outage wait (--outage-timeout): ${(stopped.cause as Error | undefined)?.message}. Nothing more was sent; ${resume.replace("fix it", "once the hub is back")}.`
          : `Stopped early after ${stopped.failures} awards in a row were refused: ${stopped.reason}. Nothing more was sent; ${resume}.`,
      );
    }
  }
  if (stopped) return EXIT.failed;
  if (dryRun) return failures.length > 0 ? EXIT.usage : checksFailed ? EXIT.failed : EXIT.ok;
  return failures.length === 0 ? EXIT.ok : EXIT.failed;
}

/** What an early stop left for a run again: rows neither applied, skipped nor failed. */
function unsent(rows: number | undefined, handled: number): string {
  return rows === undefined ? "the rest of the input was not sent" : `${Math.max(0, rows - handled)} of ${rows} rows not applied (a run again sends them)`;
}

/** Ctrl-C: what was done so far and how many awards were in flight (as JSON too, marked interrupted), and how to resume. */
function interrupted(io: CliIo, values: { journal?: string; json?: boolean }, dryRun: boolean, stopped: CampaignStoppedError, unreadable: number, elapsedMs: number): number {
  const { applied, duplicates, wouldSend, skipped, failed } = stopped.summary;
  const failedCount = failed.length + unreadable;
  const inFlight = stopped.inFlight.length;
  if (values.json) {
    const counts = dryRun ? { wouldSend } : { applied, duplicates, inFlight };
    printJson(io.stdout, { interrupted: true, dryRun, done: applied + duplicates + wouldSend + skipped + failedCount, ...counts, skipped, failedCount, elapsedMs });
  }
  const resume = dryRun
    ? "nothing was sent"
    : values.journal
      ? "run the same command again to resume (each ref is applied once)"
      : "without --journal, a run again resends everything (safe: each ref is applied once)";
  const done = dryRun ? `${wouldSend} would be sent` : `${applied} applied (answered by the server)${duplicates > 0 ? `, ${duplicates} duplicates` : ""}`;
  const flying = inFlight === 0 ? "" : ` ${inFlight} award${inFlight === 1 ? " was" : "s were"} in flight: the hub may have applied ${inFlight === 1 ? "it" : "them"}, and a run again credits each once.`;
  println(io.stderr, `Interrupted: ${done}, ${skipped} skipped, ${failedCount} failed so far; ${resume}.${flying}`);
  return EXIT.interrupted;
}
