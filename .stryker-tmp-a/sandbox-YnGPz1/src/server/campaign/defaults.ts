/**
 * The defaults of `awardMany`'s options, named once: the client applies them, and the CLI's flags
 * and help show them.
 * @example
 * ```ts
 * console.log(`--concurrency defaults to ${CAMPAIGN_DEFAULTS.concurrency}`);
 * ```
 */
// @ts-nocheck

export const CAMPAIGN_DEFAULTS: {
  /** Awards in flight at once. */
  readonly concurrency: number;
  /**
   * Awards in a row refused for a systemic cause before the campaign stops: small against any
   * campaign worth a journal, yet above the few refusals a key rotation can produce.
   */
  readonly maxFailures: number;
} = { concurrency: 16, maxFailures: 10 };
