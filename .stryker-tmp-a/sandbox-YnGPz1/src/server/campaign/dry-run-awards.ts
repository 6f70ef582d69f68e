// @ts-nocheck
import type { AwardSource } from "./award-source";
import { awardMany } from "./award-many";
import type { CampaignContext } from "./campaign-context";
import type { CampaignJournal, CampaignOptions, CampaignSummary } from "./types";
import { checkCampaign } from "./check-campaign";

/**
 * Options of `dryRunAwards`.
 * @example
 * ```ts
 * const options: DryRunOptions = { journal: "./season-7.journal", hub: "alpha" };
 * ```
 */
export interface DryRunOptions extends Pick<CampaignOptions, "onProgress" | "signal" | "total"> {
  /**
   * The campaign's journal, to count what a run would skip as already applied. Read only: a dry
   * run records nothing. A path needs the Node build.
   * @example { journal: "./season-7.journal" }
   */
  journal?: string | CampaignJournal;
  /**
   * The hub the campaign awards in: a journal file written for another hub is refused, as a real
   * run would refuse it.
   * @example { hub: "alpha" }
   */
  hub?: string;
}

/**
 * A dry run of a campaign with no key at all: validates every award, finds `ref` conflicts and
 * reads the journal, exactly as `awardMany` would, and sends nothing. Its counts are named for what
 * they are: `wouldSend`, never `applied`. It checks no credentials.
 */
export function dryRunAwards(
  awards: AwardSource,
  options: DryRunOptions,
  context: CampaignContext,
  openJournal?: (path: string, hub: string | undefined) => Promise<Required<CampaignJournal>>,
): Promise<CampaignSummary> {
  checkCampaign(awards, options, true);
  const { hub, ...rest } = options;
  // Stryker disable next-line StringLiteral,ArrowFunction: never called: a dry run returns before sending
  const send = () => Promise.reject(new Error("a dry run sends nothing"));
  const open = openJournal && ((path: string) => openJournal(path, hub));
  // One worker: nothing waits on the network, and the awards are checked in input order.
  // Stryker disable next-line ObjectLiteral,BooleanLiteral: concurrency only changes the order of checks that never wait
  return awardMany(awards, send, { ...rest, concurrency: 1 }, { ...context, dryRun: true, openJournal: open });
}
