// @ts-nocheck
import { HubError } from "../../core/errors";
import type { CampaignInFlight, CampaignSummary } from "./types";

/**
 * `awardMany` stopped before the end of its input: aborted by its `signal` (`reason` is
 * `"aborted"`), or stopped early because `failures` awards in a row failed, with no success
 * between them, for a reason no later award can escape (see the `maxFailures` option). Nothing
 * more was sent. Its `summary` is what was done, as a finished campaign's; `inFlight` holds the
 * awards cut short, which a run again with the same journal sends again (the server applies each
 * `ref` once).
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
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "CampaignStoppedError" as const;
  /** `"aborted"` when the campaign's `signal` stopped it; else the cause in words, with the status and the server's error code. */
  readonly reason: string;
  /** How many awards in a row failed for it (0 for an abort). */
  readonly failures: number;
  /** What the campaign did before it stopped (every failure is in `summary.failed`). */
  readonly summary: CampaignSummary;
  /** The awards being sent when it stopped, in input order, each with whether it may have been applied. */
  readonly inFlight: readonly CampaignInFlight[];

  constructor(init: { reason: string; failures: number; summary: CampaignSummary; cause: unknown; inFlight?: readonly CampaignInFlight[] | undefined }) {
    const inFlight = init.inFlight ?? [];
    const maybe = inFlight.filter((award) => award.mayHaveBeenApplied).length;
    const settle = maybe === 0 ? "" : `; ${maybe} award${maybe === 1 ? "" : "s"} in flight may have been applied: a run again (with the same journal) settles them through their ref`;
    const { summary } = init;
    super({
      message:
        init.reason === CampaignStoppedError.ABORTED
          ? `campaign aborted: ${summary.applied} applied, ${summary.skipped} skipped, ${summary.failed.length} failed of ${summary.total} read${settle}`
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
   * const summary = { total: 0, applied: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false };
   * const error = CampaignStoppedError.aborted({ summary, cause: "Ctrl-C", inFlight: [] });
   * error.reason; // "aborted"
   * ```
   */
  static aborted(init: { summary: CampaignSummary; cause: unknown; inFlight: readonly CampaignInFlight[] }): CampaignStoppedError {
    return new CampaignStoppedError({ ...init, reason: CampaignStoppedError.ABORTED, failures: 0 });
  }
}
