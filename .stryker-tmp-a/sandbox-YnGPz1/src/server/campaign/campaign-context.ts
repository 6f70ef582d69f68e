// @ts-nocheck
import { HubSchemaError } from "../../core/errors";
import { HubValidationError } from "../../core/errors";
import { parseAward } from "../award-schema";
import { CampaignStoppedError } from "./campaign-stopped-error";
import { CAMPAIGN_DEFAULTS } from "./defaults";
import type { CampaignInFlight, CampaignJournal, CampaignSummary } from "./types";
import { RefConflictError } from "./ref-conflict-error";
import { systemicCause } from "../../core/errors";

/**
 * What the lazily loaded campaign code gets from the entry that loads it: award validation and the
 * error classes. They come in as values rather than imports, so the campaign chunks share no module
 * with the server entry, and bundlers do not split the entry's own chunks to serve them (more files
 * to load on every cold start).
 */
export interface CampaignContext {
  parseAward: (input: unknown) => { ref: string };
  /** The defaults of the campaign options. */
  defaults: typeof CAMPAIGN_DEFAULTS;
  /** The error of a campaign stopped by its caller's signal. */
  aborted: (summary: CampaignSummary, cause: unknown, inFlight: CampaignInFlight[]) => Error;
  invalid: (what: string, path: PropertyKey[], message: string) => Error;
  conflict: (ref: string, firstSeenIn: "run" | "journal") => Error;
  /** Whether `error` says the award was applied and only its answer did not fit `schemas.award`. */
  appliedMismatch: (error: unknown) => boolean;
  /** Why no later award can succeed after `error`, or `undefined` when only this award failed. */
  systemicCause: (error: unknown) => string | undefined;
  /** The error of a campaign stopped by `maxFailures`. */
  stopped: (reason: string, failures: number, summary: CampaignSummary, cause: Error, inFlight: CampaignInFlight[]) => Error;
  /** A dry run (`dryRunAwards`, the one way to run one): everything but the sending. */
  dryRun?: boolean;
  /** Opens a journal given as a path, which the campaign closes when done; only the Node build can. */
  openJournal?: ((path: string) => Promise<Required<CampaignJournal>>) | undefined;
}

/** The context with the SDK's own validation and typed errors. */
export const campaignContext: CampaignContext = {
  parseAward,
  defaults: CAMPAIGN_DEFAULTS,
  aborted: (summary, cause, inFlight) => CampaignStoppedError.aborted({ summary, cause, inFlight }),
  invalid: (what, path, message) => new HubValidationError({ what, issues: [{ path, code: "custom", message }] }),
  conflict: (ref, firstSeenIn) => new RefConflictError({ ref, firstSeenIn }),
  appliedMismatch: (error) => error instanceof HubSchemaError && error.applied,
  systemicCause,
  stopped: (reason, failures, summary, cause, inFlight) => new CampaignStoppedError({ reason, failures, summary, cause, inFlight }),
};
