/**
 * `public-hub-sdk/server`: signed awards, signing with WebCrypto (`crypto.subtle`), the same build
 * in Node ≥ 20, Bun, Deno and edge workers. Never import it in browser code: it needs the API
 * secret (a bundler resolving the `browser` condition gets a build that refuses, ./browser.ts).
 *
 * @module public-hub-sdk/server
 * @example
 * ```ts
 * import { HubServerClient } from "public-hub-sdk/server";
 *
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET });
 * await server.awardPoints({ wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" });
 * ```
 */
import { campaignContext } from "./campaign/errors";
import type { AwardSource, CampaignSummary, DryRunOptions } from "./campaign/types";
import { openJournal } from "./hub-server-client";

/**
 * A dry run of a campaign that needs no key: every award validated, `ref` conflicts found, the
 * journal read (what a run would skip), nothing sent. The summary counts `wouldSend`; `applied` is
 * 0. Credentials are not checked: a real run may still be refused (see `CampaignStoppedError`).
 * A journal path needs a file system (`node:fs`: Node, Bun, Deno); elsewhere a journal is a
 * `CampaignJournal` object.
 * @throws {HubValidationError} for bad options or a journal that is not one, or of another hub.
 * @example
 * ```ts
 * const summary = await dryRunAwards(awards, { journal: "./season-7.journal", hub: "alpha" });
 * console.log(`${summary.wouldSend} to send, ${summary.skipped} already applied, ${summary.failed.length} invalid`);
 * ```
 */
export async function dryRunAwards(awards: AwardSource, options: DryRunOptions = {}): Promise<CampaignSummary> {
  // Loaded on first use, like awardMany's campaign code.
  const campaign = await import("./campaign/campaign");
  const hub = typeof options?.hub === "string" ? options.hub : undefined;
  return campaign.dryRunAwards(awards, options, { ...campaignContext, openJournal: (path) => openJournal(path, hub) });
}

/**
 * Which build of `public-hub-sdk/server` your runtime or bundler resolved: `"webcrypto"` here,
 * `"none"` in the browser build, which signs nothing.
 */
export const signerImplementation = "webcrypto" as "webcrypto" | "none";

export { HubServerClient, type HubServerClientOptions } from "./hub-server-client";
export { awardPath, deriveSigningKey, signingPayload, signRequest, type KeyMaterial, type SignRequestInput } from "./signing";
export { BrowserNotAllowedError } from "./browser-guard";
export { awardSchema, parseAward, type AwardInput, type AmountAward, type KindAward } from "./award-schema";
export { refusalKind, type RefusalKind, type SigningDiagnostics } from "../core/errors";
export { clockOffsetOf, SIGNATURE_WINDOW_SECONDS } from "./server-clock";
export { parseHubProfile } from "../core/profile";
export { redisBudget, type BudgetStore, type RedisBudgetOptions, type RedisEval } from "./redis-budget";
export type { HubBudget, Pace, PaceMark } from "../core/pace";
export { CAMPAIGN_DEFAULTS, type AwardSource, type DryRunOptions, type CampaignOptions, type CampaignSummary, type CampaignProgress, type CampaignFailure, type CampaignInFlight, type CampaignJournal, type JournalEntry } from "./campaign/types";
export { RefConflictError, CampaignStoppedError } from "./campaign/errors";
export * from "../index";
