/**
 * The campaign's part of the server entry: its two error classes, the one check of a campaign's
 * input and options, and the context handed to the engine (campaign.ts). The engine is loaded on
 * the first campaign and gets these as values rather than imports, so its chunk shares no module
 * with the entry and the bundler does not split the entry's own chunks for it.
 */
import { checkOptions, optional, type Rule } from "../../client/check-input";
import { HubApiError, HubConnectionError, HubError, HubSchemaError, HubValidationError, systemicCause } from "../../core/errors";
import { parseAward, type AwardInput } from "../award-schema";
import { CAMPAIGN_DEFAULTS, type CampaignInFlight, type CampaignJournal, type CampaignProgress, type CampaignSummary } from "./types";

/**
 * A campaign met a `ref` already used by a different award: earlier in the same input, or in an
 * earlier run recorded in the journal. The award was not sent, since the hub would keep the first
 * award under that `ref` and silently ignore this one.
 * @example
 * ```ts
 * const summary = await server.awardMany(awards);
 * const conflicts = summary.failed.filter((f) => f.error instanceof RefConflictError);
 * ```
 */
export class RefConflictError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "RefConflictError" as const;
  /** The `ref` used twice. */
  readonly ref: string;
  /** Where the first use is: `"run"` (this input) or `"journal"` (an earlier run). */
  readonly firstSeenIn: "run" | "journal";

  constructor(init: { ref: string; firstSeenIn: "run" | "journal" }) {
    const where = init.firstSeenIn === "run" ? "earlier in this campaign" : "by an earlier run (journal)";
    super({ message: `ref "${init.ref}" was already used ${where} for a different award; not sent` });
    this.ref = init.ref;
    this.firstSeenIn = init.firstSeenIn;
  }
}

/**
 * `awardMany` stopped before the end of its input: aborted by its `signal` (`reason` is
 * `"aborted"`), stopped because the hub stayed away longer than `outageTimeout` (`"outage"`), or
 * stopped early because `failures` awards in a row failed, with no success between them, for a
 * reason no later award can escape (see the `maxFailures` option). Nothing more was sent. Its
 * `summary` is what was done, as a finished campaign's; `inFlight` holds the awards cut short,
 * which a run again with the same journal sends again (the hub applies each `ref` once).
 * @example
 * ```ts
 * try {
 *   await server.awardMany(awards, { journal: "./season-7.journal", signal });
 * } catch (error) {
 *   if (error instanceof CampaignStoppedError) {
 *     console.error(`stopped (${error.reason}): ${error.summary.applied} applied, ${error.inFlight.length} in flight`);
 *   }
 * }
 * ```
 */
export class CampaignStoppedError extends HubError {
  /** The `reason` of a campaign aborted by its `signal`. */
  static readonly ABORTED = "aborted";
  /** The `reason` of a campaign stopped because the hub stayed away longer than `outageTimeout`. */
  static readonly OUTAGE = "outage";
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "CampaignStoppedError" as const;
  /** `"aborted"` when the campaign's `signal` stopped it; `"outage"` when the hub stayed away past `outageTimeout`; else the cause in words, with the status and the server's error code. */
  readonly reason: string;
  /** How many awards in a row failed for it (0 for an abort or an outage). */
  readonly failures: number;
  /** What the campaign did before it stopped (every failure is in `summary.failed`). */
  readonly summary: CampaignSummary;
  /** The awards being sent when it stopped, in input order, each with whether it may have been applied. */
  readonly inFlight: readonly CampaignInFlight[];

  constructor(init: { reason: string; failures: number; summary: CampaignSummary; cause: unknown; inFlight?: readonly CampaignInFlight[] | undefined }) {
    const { summary, inFlight = [] } = init;
    const maybe = inFlight.filter((award) => award.mayHaveBeenApplied).length;
    const settle = maybe === 0 ? "" : `; ${maybe} award${maybe === 1 ? "" : "s"} in flight may have been applied: a run again (with the same journal) settles them through their ref`;
    const duplicates = summary.duplicates > 0 ? `, ${summary.duplicates} duplicate${summary.duplicates === 1 ? "" : "s"}` : "";
    const counts = `${summary.applied} applied${duplicates}, ${summary.skipped} skipped, ${summary.failed.length} failed of ${summary.total} read`;
    super({
      message:
        init.reason === CampaignStoppedError.ABORTED
          ? `campaign aborted: ${counts}${settle}`
          : init.reason === CampaignStoppedError.OUTAGE
            ? `campaign stopped: the hub did not answer within outageTimeout (${(init.cause as Error | undefined)?.message}): ${counts}. ` +
              `Run it again once the hub is back (with the same journal, only awards not recorded as applied are sent)${settle}`
            : `campaign stopped after ${init.failures} awards in a row failed with no success between them: ${init.reason}. ` +
            `No later award could succeed; fix the cause, then run again (with the same journal, only awards not recorded as applied are sent)${settle}`,
      cause: init.cause,
      mayHaveBeenApplied: maybe > 0,
    });
    this.reason = init.reason;
    this.failures = init.failures;
    this.summary = summary;
    this.inFlight = inFlight;
  }

  /**
   * The error of a campaign aborted by its signal.
   * @example
   * ```ts
   * const summary = { total: 0, applied: 0, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false };
   * const error = CampaignStoppedError.aborted({ summary, cause: "Ctrl-C", inFlight: [] });
   * error.reason; // "aborted"
   * ```
   */
  static aborted(init: { summary: CampaignSummary; cause: unknown; inFlight: readonly CampaignInFlight[] }): CampaignStoppedError {
    return new CampaignStoppedError({ ...init, reason: CampaignStoppedError.ABORTED, failures: 0 });
  }
}

/** The most awards a campaign keeps in flight: far beyond any hub's pace, and a worker each. */
const MAX_CONCURRENCY = 10_000;
const journalLike = (v: unknown) => (typeof v === "string" && v !== "") || (typeof v === "object" && v !== null && typeof (v as CampaignJournal).load === "function" && typeof (v as CampaignJournal).record === "function");
// Each option's one check; a dry run knows its own names only.
const RULES: readonly Rule[] = [
  ["concurrency", optional((v) => Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_CONCURRENCY), `an integer from 1 to ${MAX_CONCURRENCY}`],
  ["maxFailures", optional((v) => v === Infinity || (Number.isInteger(v) && (v as number) >= 1)), "an integer ≥ 1, or Infinity"],
  ["signal", optional((v) => v instanceof AbortSignal), "an AbortSignal"],
  ["onProgress", optional((v) => typeof v === "function"), "a function"],
  ["total", optional((v) => Number.isSafeInteger(v) && (v as number) >= 0), "an integer ≥ 0"],
  ["outageTimeout", optional((v) => typeof v === "number" && v >= 0), "a number of milliseconds ≥ 0"],
  ["journal", optional(journalLike), "a file path or a CampaignJournal (with load and record methods)"],
  ["hub", optional((v) => typeof v === "string"), "a hub slug"],
];
const CAMPAIGN_OPTIONS = ["concurrency", "maxFailures", "outageTimeout", "signal", "onProgress", "total", "journal", "dryRun"];
// What says the hub is away for now rather than refusing: a gateway's or an overloaded server's
// answer. A 500 stays one award's failure: a server may fail on that award alone.
const OUTAGE_STATUSES = new Set([502, 503, 504]);
const DRY_RUN_OPTIONS = ["signal", "onProgress", "total", "journal", "hub"];

const invalid = (what: string, path: PropertyKey[], message: string) => new HubValidationError({ what, issues: [{ path, code: "custom", message }] });

/**
 * Checks a campaign's awards source and options, before anything is read or sent.
 * @throws {HubValidationError} for a source that is not iterable, or bad options.
 */
function checkCampaign(awards: unknown, options: unknown, dryRun: boolean): void {
  const iterable = (awards as { [Symbol.iterator]?: unknown } | null | undefined)?.[Symbol.iterator] ?? (awards as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator];
  // A string is iterable too, but its characters are no awards.
  if (typeof awards !== "object" || typeof iterable !== "function") {
    throw new HubValidationError({ what: "campaign", issues: [{ path: ["awards"], code: "invalid_type", message: "awards must be an Iterable or AsyncIterable (an array, a generator, a stream of rows)" }] });
  }
  // The one way to dry-run is dryRunAwards: a `dryRun` here (an older option) must not send for real.
  if (!dryRun && typeof options === "object" && options !== null && "dryRun" in options) throw invalid("campaign options", ["dryRun"], "awardMany has no dryRun: use dryRunAwards, which sends nothing");
  const names = dryRun ? DRY_RUN_OPTIONS : CAMPAIGN_OPTIONS;
  checkOptions(dryRun ? "dry run options" : "campaign options", options, RULES.filter(([name]) => names.includes(name)), names);
}

/** What the engine gets from the entry: validation, the defaults and the typed errors. */
export const campaignContext = {
  check: checkCampaign,
  parseAward: parseAward as (input: unknown) => AwardInput,
  defaults: CAMPAIGN_DEFAULTS,
  invalid,
  conflict: (ref: string, firstSeenIn: "run" | "journal"): Error => new RefConflictError({ ref, firstSeenIn }),
  stopped: (init: ConstructorParameters<typeof CampaignStoppedError>[0]): Error => new CampaignStoppedError(init),
  /** Whether `error` says the award was applied and only its answer did not fit `schemas.award`. */
  appliedMismatch: (error: unknown) => error instanceof HubSchemaError && error.applied,
  /** Why no later award can succeed after `error`, or `undefined` when only this award failed. */
  systemicCause,
  /** Whether `error` says the hub is away for now (no connection, a timeout, a 502/503/504): the campaign pauses. */
  outage: (error: unknown) => error instanceof HubConnectionError || (error instanceof HubApiError && OUTAGE_STATUSES.has(error.status)),
};

/** A journal file the campaign opened: `lock` (the file journal's) makes it the file's one writer. */
export type OpenedJournal = Required<CampaignJournal> & { lock?: () => Promise<void> };

/** The context, and how a journal given as a path is opened (where `node:fs` exists; the campaign closes it). */
export type CampaignContext = typeof campaignContext & {
  openJournal?: ((path: string) => Promise<OpenedJournal>) | undefined;
  /** Hears each progress before `onProgress`: the client's telemetry, which catches its own errors. */
  observe?: ((progress: CampaignProgress) => void) | undefined;
};
