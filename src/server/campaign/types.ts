import type { AwardInput } from "../award-schema";

/**
 * One line of a campaign journal: an award the server answered with success.
 * @example
 * ```ts
 * const entry: JournalEntry = { ref: "season-7:0xabc", hash: "2kq9x0m1c7a", status: "applied" };
 * ```
 */
export interface JournalEntry {
  /** The award's `ref`. */
  ref: string;
  /** Fingerprint of the award's canonical body, so a changed award under the same `ref` is caught. */
  hash: string;
  /** Always `"applied"`: only answered awards are written. */
  status: "applied";
}

/**
 * Where a campaign remembers what the server has applied, so that a run again after a crash does
 * not resend it. `awardMany` accepts any object with these methods; `journal: "./file"` (Node
 * build) uses the built-in append-only JSON Lines file.
 * @example
 * ```ts
 * const entries: JournalEntry[] = [];
 * const journal: CampaignJournal = { load: () => entries, record: (entry) => void entries.push(entry) };
 * await server.awardMany(awards, { journal });
 * ```
 */
export interface CampaignJournal {
  /** Every entry recorded so far, by earlier runs too. */
  load(): Iterable<JournalEntry> | AsyncIterable<JournalEntry> | Promise<Iterable<JournalEntry>>;
  /** Records one applied award; the campaign waits for it before counting the award as applied. */
  record(entry: JournalEntry): void | Promise<void>;
  /** Flushes and releases the journal; called once at the end by `awardMany` when it opened it. */
  close?(): void | Promise<void>;
}

/**
 * A snapshot of a running campaign, given to `onProgress` after each award settles.
 * @example
 * ```ts
 * const onProgress = (p: CampaignProgress) => console.log(`${p.done}/${p.total ?? "?"} at ${p.rate.toFixed(0)}/s`);
 * ```
 */
export interface CampaignProgress {
  /** Awards settled: applied, skipped or failed. */
  done: number;
  /** Awards in the input, once known (an array's length, the `total` option, or the end of the input). */
  total: number | undefined;
  /** Awards the server answered with success (in a dry run: that would be sent). */
  applied: number;
  /** Awards not sent: already in the journal, or a repeat of an identical award in this run. */
  skipped: number;
  /** Awards that failed. */
  failed: number;
  /** Awards being sent now. */
  inFlight: number;
  /** Settled awards per second over the last few seconds. */
  rate: number;
  /** Milliseconds since the campaign started. */
  elapsedMs: number;
}

/**
 * One award that failed, with its typed error (`HubValidationError`, `RefConflictError`,
 * `HubApiError`…).
 * @example
 * ```ts
 * for (const { index, error } of summary.failed) console.error(`award #${index}: ${error.message}`);
 * ```
 */
export interface CampaignFailure {
  /** Position in the input, from 0. */
  index: number;
  /** The award as it was given. */
  award: AwardInput;
  /** Why it failed. */
  error: Error;
}

/**
 * What `awardMany` did.
 * @example
 * ```ts
 * const { total, applied, skipped, failed } = await server.awardMany(awards);
 * ```
 */
export interface CampaignSummary {
  /** Awards read from the input. */
  total: number;
  /** Awards the server answered with success (in a dry run: that would be sent). */
  applied: number;
  /** Awards not sent: already applied according to the journal, or identical repeats in this run. */
  skipped: number;
  /** Every failed award, in the order they failed. */
  failed: CampaignFailure[];
  /** Whether this was a dry run (nothing sent). */
  dryRun: boolean;
}

/**
 * Options of `awardMany`.
 * @example
 * ```ts
 * await server.awardMany(awards, { concurrency: 16, journal: "./season-7.journal", onProgress: console.log });
 * ```
 */
export interface CampaignOptions {
  /**
   * Awards sent at the same time. Memory stays proportional to it, whatever the input's size.
   * @default 16
   * @example { concurrency: 4 }
   */
  concurrency?: number;
  /**
   * Makes the campaign resumable: a file path (Node build: append-only JSON Lines) or a
   * {@link CampaignJournal}. Run again with the same journal after a crash or an abort.
   * @example { journal: "./season-7.journal" }
   */
  journal?: string | CampaignJournal;
  /**
   * Stops the campaign: nothing more is sent, awards in flight are aborted, and `awardMany`
   * rejects with `HubAbortError` once they settled and the journal is flushed.
   * @example { signal: AbortSignal.timeout(60_000) }
   */
  signal?: AbortSignal;
  /**
   * Called after each award settles, with counts and the rate.
   * @example { onProgress: (p) => console.log(p.done, p.total) }
   */
  onProgress?: (progress: CampaignProgress) => void;
  /**
   * The number of awards, when the input cannot tell (an async stream), for `progress.total`.
   * @example { total: 120_000 }
   */
  total?: number;
  /**
   * Validate every award, detect `ref` conflicts and read the journal, but send nothing.
   * @default false
   * @example { dryRun: true }
   */
  dryRun?: boolean;
}

/** How the campaign sends one award (the client's `awardPoints`). */
export type AwardSender = (award: AwardInput, options: { signal: AbortSignal }) => Promise<unknown>;
