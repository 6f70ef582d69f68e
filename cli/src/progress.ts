import cliProgress from "cli-progress";
import type { CampaignProgress } from "public-hub-sdk/server";
import { println, type CliIo } from "./io";

/** What the display shows: the campaign's counts plus rows the reader could not read. */
export interface ProgressView {
  update(progress: CampaignProgress, unreadable: number): void;
  /** A line of its own (the SDK's log with --verbose), above the bar rather than over it. */
  log(line: string): void;
  stop(): void;
}

const seconds = (s: number) => (Number.isFinite(s) ? (s >= 3600 ? `${(s / 3600).toFixed(1)}h` : s >= 60 ? `${Math.floor(s / 60)}m${Math.round(s % 60)}s` : `${Math.round(s)}s`) : "?");

/** A live bar on a terminal; plain lines every `progressIntervalMs` otherwise; nothing for `--json` on a terminal. */
export function progressView(io: CliIo, estimate: number | undefined, dryRun = false): ProgressView {
  return io.isTTY ? terminalBar(io, estimate) : periodicLines(io, estimate, dryRun);
}

function counts(progress: CampaignProgress, unreadable: number, estimate: number | undefined) {
  const done = progress.done + unreadable;
  const total = progress.total !== undefined ? progress.total + unreadable : estimate;
  const eta = total !== undefined && progress.rate > 0 ? (total - done) / progress.rate : Number.NaN;
  return { done, total, eta, failed: progress.failed + unreadable };
}

function terminalBar(io: CliIo, estimate: number | undefined): ProgressView {
  const bar = new cliProgress.SingleBar(
    {
      stream: io.stderr as NodeJS.WritableStream,
      format: "{bar} {percentage}% | {value}/{total} | {rate}/s | ETA {etaText} | failed {failed}",
      barsize: 30,
      hideCursor: true,
      fps: 10,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(estimate ?? 0, 0, { rate: "0", etaText: "?", failed: 0 });
  return {
    update(progress, unreadable) {
      const { done, total, eta, failed } = counts(progress, unreadable, estimate);
      if (total !== undefined && total !== bar.getTotal()) bar.setTotal(total);
      bar.update(done, { rate: progress.rate.toFixed(0), etaText: seconds(eta), failed });
    },
    // Clears the bar's line; the bar draws itself again below at its next frame.
    log: (line) => io.stderr.write(`\r\x1b[2K${line}\n`),
    stop: () => bar.stop(),
  };
}

function periodicLines(io: CliIo, estimate: number | undefined, dryRun: boolean): ProgressView {
  let latest: { progress: CampaignProgress; unreadable: number } | undefined;
  const print = () => {
    if (!latest) return;
    const { done, total, eta, failed } = counts(latest.progress, latest.unreadable, estimate);
    const share = total ? ` (${Math.floor((100 * done) / total)}%)` : "";
    const { applied, duplicates, wouldSend, skipped, rate } = latest.progress;
    const counted = dryRun ? `would send ${wouldSend}` : `applied ${applied}${duplicates > 0 ? `, duplicates ${duplicates}` : ""}`;
    println(io.stderr, `progress ${done}/${total ?? "?"}${share}: ${counted}, skipped ${skipped}, failed ${failed}, ${rate.toFixed(0)}/s, ETA ${seconds(eta)}`);
  };
  const timer = setInterval(print, io.progressIntervalMs ?? 5_000);
  timer.unref?.();
  return {
    update(progress, unreadable) {
      latest = { progress, unreadable };
    },
    log: (line) => println(io.stderr, line),
    stop: () => clearInterval(timer),
  };
}
