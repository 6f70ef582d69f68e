// @ts-nocheck
// What every build of `public-hub-sdk/server` exports besides the runtime-specific pieces.
export type { HubServerClientOptions } from "./hub-server-client";
export { BrowserNotAllowedError } from "./browser-guard";
export { awardSchema, parseAward, type AwardInput, type AmountAward, type KindAward } from "./award-schema";
export type { KeyMaterial, SignRequestInput } from "./signing";
export { awardPath, signingPayload } from "./signing-payload";
export { refusalKind, type RefusalKind, type SigningDiagnostics } from "../core/errors";
export { clockOffsetOf } from "./server-clock";
export { SIGNATURE_WINDOW_SECONDS } from "./hub-server-client";
export { CAMPAIGN_DEFAULTS } from "./campaign/defaults";
export { RefConflictError } from "./campaign/ref-conflict-error";
export { CampaignStoppedError } from "./campaign/campaign-stopped-error";
export type { DryRunOptions } from "./campaign/dry-run-awards";
export type { CampaignOptions, CampaignSummary, CampaignProgress, CampaignFailure, CampaignInFlight, CampaignJournal, JournalEntry } from "./campaign/types";
export type { AwardSource } from "./campaign/award-source";
export * from "../index";
