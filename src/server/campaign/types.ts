import type { AwardInput } from "../award-schema";

/**
 * The defaults of `awardMany`'s options, named once: the client applies them, and the CLI's help
 * shows them. `maxFailures` is small against any campaign worth a journal, yet above the few
 * refusals a key rotation can produce.
 * @example
 * ```ts
 * console.log(`--concurrency defaults to ${CAMPAIGN_DEFAULTS.concurrency}`);
 * ```
 */
export const CAMPAIGN_DEFAULTS: {
  /** Awards in flight at once. */
  readonly concurrency: number;
  /** Awards failed in a row, for a cause no later award escapes, before the campaign stops. */
  readonly maxFailures: number;
  /** Milliseconds the campaign waits for a hub that is away before it stops. */
  readonly outageTimeout: number;
} = { concurrency: 16, maxFailures: 10, outageTimeout: 60_000 };

/**
 * The input of a campaign: any iterable, sync or async (an array, a generator, a stream of rows).
 * @example
 * ```ts
 * async function* rows(): AsyncGenerator<AwardInput> {
 *   for await (const line of lines) yield JSON.parse(line);
 * }
 * const input: AwardSource = rows();
 * ```
 */
export type AwardSource = Iterable<AwardInput> | AsyncIterable<AwardInput>;

/**
 * One line of a campaign journal: an award the hub holds (applied by this campaign, or answered as
 * a duplicate of its `ref`), so a run again never sends it.
 * @example
 * ```ts
 * const entry: JournalEntry = { ref: "season-7:0xabc", hash: "2kq9x0m1c7a", status: "applied" };
 * ```
 */
export interface JournalEntry {
  /** The award's `ref`. */
  ref: string;
  /** Fingerprint of the award's fields, so a changed award under the same `ref` is caught. */
  hash: string;
  /** Always `"applied"`: the hub holds the award (a duplicate included). */
  status: "applied";
}

/**
 * Where a campaign remembers what the hub holds, so that a run again after a crash does not resend
 * it. `awardMany` accepts any object with these methods; `journal: "./file"` (where `node:fs` exists: Node, Bun, Deno) uses the
 * built-in append-only JSON Lines file.
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
  /** Records one settled award; the campaign waits for it before counting the award. */
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
  /** Awards dealt with: applied, duplicate, skipped or failed (in a dry run: would send, skipped or failed). */
  done: number;
  /** Awards in the input, once known (an array's length, the `total` option, or the end of the input). */
  total: number | undefined;
  /** Awards the hub applied. Always 0 in a dry run: nothing is sent. */
  applied: number;
  /** Awards the hub answered as a duplicate: it already had their `ref`. */
  duplicates: number;
  /** Dry run only: awards that passed every check and would be sent (0 in a real run). */
  wouldSend: number;
  /** Awards not sent: already in the journal, or a repeat of an identical award in this run. */
  skipped: number;
  /** Awards that failed. */
  failed: number;
  /** Awards being sent now. */
  inFlight: number;
  /** Awards dealt with (`done`) per second over the last few seconds. */
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
 * An award that was being sent when the campaign stopped (aborted, or stopped early): neither
 * applied nor failed in the summary. A run again with the same journal sends it again, and the
 * hub applies its `ref` once, so it is settled either way.
 * @example
 * ```ts
 * for (const { index, award, mayHaveBeenApplied } of error.inFlight) console.log(index, award.ref, mayHaveBeenApplied);
 * ```
 */
export interface CampaignInFlight {
  /** Position in the input, from 0. */
  index: number;
  /** The award as it was given. */
  award: AwardInput;
  /** Whether it may have been applied: false only when it had not left (it was waiting for its turn). */
  mayHaveBeenApplied: boolean;
}

/**
 * What `awardMany` did.
 * @example
 * ```ts
 * const { total, applied, duplicates, skipped, failed } = await server.awardMany(awards);
 * ```
 */
export interface CampaignSummary {
  /** Awards read from the input. */
  total: number;
  /** Awards the hub applied. Always 0 in a dry run: nothing is sent. */
  applied: number;
  /**
   * Awards the hub answered as a duplicate (it already had their `ref`: an earlier run's award
   * whose answer was lost, or another sender's). Settled, journaled, never failures.
   */
  duplicates: number;
  /**
   * Dry run only: awards that passed every check (valid, no `ref` conflict, not in the journal) and
   * would be sent. 0 in a real run. A dry run checks no credentials: the hub may still refuse them.
   */
  wouldSend: number;
  /** Awards not sent: already settled according to the journal, or identical repeats in this run. */
  skipped: number;
  /** Every failed award, in the order they failed. */
  failed: CampaignFailure[];
  /**
   * Awards the hub applied (answered 2xx, counted in `applied` and journaled) whose answer did
   * not fit the client's `schemas.award`, each with its `HubSchemaError`. Empty without that schema.
   */
  mismatched: CampaignFailure[];
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
   * Awards sent at the same time, from 1 to 10,000. The input is read only as fast as awards are
   * sent; what grows with the input is the table of its `ref`s (24 to 48 bytes each, off the JS heap).
   * @default 16
   */
  concurrency?: number | undefined;
  /**
   * Makes the campaign resumable: a file path (where `node:fs` exists: append-only JSON Lines) or a
   * {@link CampaignJournal}. Run again with the same journal after a crash or an abort.
   */
  journal?: string | CampaignJournal;
  /**
   * Stops the campaign: nothing more is sent, awards in flight are aborted, and `awardMany`
   * rejects, once they settled and the journal is flushed, with `CampaignStoppedError` (`reason`
   * `"aborted"`): its `summary` is what was done, its `inFlight` the awards cut short, each marked
   * with whether it may have been applied. A run again with the same journal settles them.
   */
  signal?: AbortSignal;
  /** Called after each award settles, with counts and the rate. */
  onProgress?: (progress: CampaignProgress) => void;
  /** The number of awards, when the input cannot tell (an async stream), for `progress.total`. */
  total?: number;
  /**
   * Stops the campaign early, with `CampaignStoppedError`, when this many awards in a row (no
   * success between them) fail for a cause no later award escapes: an unknown key (401), a
   * signature refused even after the clock correction, a key of another hub (403), no such hub
   * (404), no server at the address (before the hub answered once in this run; after that, it is
   * an outage: see `outageTimeout`). Awards in flight are aborted and not recorded, so a run again
   * with the same journal sends only the rest. Failures of one award (a bad row, a conflict, a 400
   * for the body, a 500 after retries) do not count. `Infinity` never stops.
   * @default 10
   */
  maxFailures?: number | undefined;
  /**
   * How long, in milliseconds, the campaign waits for a hub that is away: a refused or reset
   * connection, a host that does not resolve, a timeout, a 502, 503 or 504, after the award's own
   * retries. Meanwhile no new award is taken, the award that met the outage is sent again with a
   * backoff (250 ms, doubling up to 5 s) until the hub answers, then the awards it held are sent
   * again (the hub applies each `ref` once). None of it counts as a failure. Past this time the
   * campaign stops with `CampaignStoppedError` (`reason` `"outage"`). `0` stops at once.
   * @default 60_000
   */
  outageTimeout?: number | undefined;
}

/**
 * Options of `dryRunAwards`.
 * @example
 * ```ts
 * const options: DryRunOptions = { journal: "./season-7.journal", hub: "alpha" };
 * ```
 */
export interface DryRunOptions extends Pick<CampaignOptions, "onProgress" | "signal" | "total"> {
  /**
   * The campaign's journal, to count what a run would skip. Read only: a dry run never writes to
   * it, not even to cut a torn last line. A path needs a file system (`node:fs`: Node, Bun, Deno).
   */
  journal?: string | CampaignJournal;
  /**
   * The hub the campaign awards in: a journal file written for another hub is refused, as a real
   * run would refuse it.
   */
  hub?: string;
}

/** How the campaign sends one award (the client's `awardPoints`): it resolves with `duplicate: true` when the hub already had the `ref`. */
export type AwardSender = (award: AwardInput, options: { signal: AbortSignal }) => Promise<{ duplicate?: boolean } | void>;
