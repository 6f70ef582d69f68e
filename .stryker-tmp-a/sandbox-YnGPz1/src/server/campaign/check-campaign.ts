/**
 * What `awardMany` and `dryRunAwards` are handed, checked before anything is read or sent: the
 * awards are an Iterable or AsyncIterable, and the options an object of known names, with the
 * same routine as every other options bag (`checkOptions`). `concurrency` and `maxFailures` keep
 * their own integer checks in `award-many.ts`.
 */
// @ts-nocheck

import { checkOptions, optional, type Rule } from "../../client/check-input";
import { HubValidationError } from "../../core/errors";
import type { DryRunOptions } from "./dry-run-awards";
import type { CampaignOptions } from "./types";

/** Every option of `awardMany`, named once: any other name is refused, naming the nearest. */
export const CAMPAIGN_OPTIONS = ["concurrency", "journal", "signal", "onProgress", "total", "dryRun", "maxFailures"] as const;
/** Every option of `dryRunAwards`, named once. */
export const DRY_RUN_OPTIONS = ["journal", "signal", "onProgress", "total", "hub"] as const;

// Every name of the option types is listed (a compile error here names the one that is not).
const listed: [Exclude<keyof CampaignOptions, (typeof CAMPAIGN_OPTIONS)[number]>, Exclude<keyof DryRunOptions, (typeof DRY_RUN_OPTIONS)[number]>] extends [never, never] ? true : never = true;
void listed;

/** The most awards a campaign keeps in flight: far beyond any server's pace, and a worker each (1e21 would be a RangeError). */
export const MAX_CONCURRENCY = 10_000;

// `concurrency` and `maxFailures` keep their own integer checks in award-many.ts; the bound is here.
// `dryRun` is a known name without a rule: awardMany refuses any value of it, pointing at dryRunAwards.
const RULES: readonly Rule[] = [
  ["concurrency", optional((v) => !(typeof v === "number" && v > MAX_CONCURRENCY)), `at most ${MAX_CONCURRENCY}`],
  ["signal", optional((v) => v instanceof AbortSignal), "an AbortSignal"],
  ["onProgress", optional((v) => typeof v === "function"), "a function"],
  ["total", optional((v) => Number.isSafeInteger(v) && (v as number) >= 0), "an integer ≥ 0"],
  ["journal", optional((v) => typeof v === "string" || (typeof v === "object" && v !== null && ["load", "record"].every((m) => typeof (v as Record<string, unknown>)[m] === "function"))), "a file path or a CampaignJournal (with load and record methods)"],
  ["hub", optional((v) => typeof v === "string"), "a hub slug"],
];

/**
 * Checks a campaign's awards source and options.
 * @throws {HubValidationError} for a source that is not iterable, or bad options.
 */
export function checkCampaign(awards: unknown, options: unknown, dryRun: boolean): void {
  const iterable = (awards as { [Symbol.iterator]?: unknown } | null | undefined)?.[Symbol.iterator] ?? (awards as { [Symbol.asyncIterator]?: unknown } | null | undefined)?.[Symbol.asyncIterator];
  // A string is iterable too, but its characters are no awards.
  if (typeof awards !== "object" || typeof iterable !== "function") {
    throw new HubValidationError({ what: "campaign", issues: [{ path: ["awards"], code: "invalid_type", message: "awards must be an Iterable or AsyncIterable (an array, a generator, a stream of rows)" }] });
  }
  const names: readonly string[] = dryRun ? DRY_RUN_OPTIONS : CAMPAIGN_OPTIONS;
  checkOptions(dryRun ? "dry run options" : "campaign options", options, RULES.filter(([name]) => names.includes(name)), names);
}
