// What every build of `public-hub-sdk/server` exports besides the runtime-specific pieces.
export type { HubServerClientOptions } from "./hub-server-client";
export { BrowserNotAllowedError } from "./browser-guard";
export { awardSchema, parseAward, type AwardInput, type AmountAward, type KindAward } from "./award-schema";
export type { KeyMaterial, SignRequestInput } from "./signing";
export { awardPath, signingPayload } from "./signing-payload";
export { refusalKind, type RefusalKind, type SigningDiagnostics } from "../core/errors";
export { clockOffsetOf } from "./server-clock";
export { SIGNATURE_WINDOW_SECONDS } from "./hub-server-client";
export { CAMPAIGN_DEFAULTS, type AwardSource, type DryRunOptions, type CampaignOptions, type CampaignSummary, type CampaignProgress, type CampaignFailure, type CampaignInFlight, type CampaignJournal, type JournalEntry } from "./campaign/types";
export { RefConflictError, CampaignStoppedError } from "./campaign/errors";
export * from "../index";
