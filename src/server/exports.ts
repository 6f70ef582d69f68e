// What every build of `public-hub-sdk/server` exports besides the runtime-specific pieces.
export { HubServerClientBase, type HubServerClientOptions } from "./hub-server-client";
export { BrowserNotAllowedError } from "./browser-guard";
export { awardSchema, parseAward, type AwardInput, type AmountAward, type KindAward } from "./award-schema";
export type { SignRequestInput } from "./signing";
export { signingPayload } from "./signing-payload";
export type { HmacBackend, PayloadSigner } from "./crypto/backend";
export * from "../index";
