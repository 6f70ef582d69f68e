import { HubError } from "../../core/errors/hub-error";
import type { CampaignSummary } from "./types";

/**
 * `awardMany` stopped early: `failures` awards in a row failed, with no success between them, for
 * a reason no later award can escape (see the `maxFailures` option). Nothing more was sent; awards
 * in flight were aborted and not recorded, so a run again with the same journal resumes.
 * @example
 * ```ts
 * try {
 *   await server.awardMany(awards, { journal: "./season-7.journal" });
 * } catch (error) {
 *   if (error instanceof CampaignStoppedError) console.error(`stopped: ${error.reason}`);
 * }
 * ```
 */
export class CampaignStoppedError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "CampaignStoppedError" as const;
  /** The cause in words, with the status and the server's error code. */
  readonly reason: string;
  /** How many awards in a row failed for it. */
  readonly failures: number;
  /** What the campaign did before it stopped (every failure is in `summary.failed`). */
  readonly summary: CampaignSummary;

  constructor(init: { reason: string; failures: number; summary: CampaignSummary; cause: Error }) {
    super({
      message:
        `campaign stopped after ${init.failures} awards in a row failed with no success between them: ${init.reason}. ` +
        "No later award could succeed; fix the cause, then run again (with the same journal, only awards not recorded as applied are sent)",
      cause: init.cause,
    });
    this.reason = init.reason;
    this.failures = init.failures;
    this.summary = init.summary;
  }
}
