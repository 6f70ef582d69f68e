/**
 * @module
 * `public-hub-sdk/server` for edge workers and other runtimes: signing with WebCrypto. Never import it in
 * browser code: it needs the API secret.
 *
 * @example
 * ```ts
 * import { HubServerClient } from "public-hub-sdk/server";
 *
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET });
 * await server.awardPoints({ wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" });
 * ```
 */
import type { AwardSource } from "./campaign/award-source";
import { campaignContext } from "./campaign/campaign-context";
import type { DryRunOptions } from "./campaign/dry-run-awards";
import type { CampaignSummary } from "./campaign/types";
import { webBackend } from "./crypto/web-backend";
import type { HubSchemas } from "../core/types/schemas";
import { HubServerClientBase, type HubServerClientOptions } from "./hub-server-client";
import { createSigning, type SignRequestInput } from "./signing";

/**
 * {@link HubClient} plus signed awards. Construct it on your server with the key's secret.
 *
 * @example
 * ```ts
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET });
 * const result = await server.awardPoints({ wallet: "0xabc", kind: "daily-login", ref: "login-2026-11-22:0xabc" });
 * ```
 */
export class HubServerClient<S extends HubSchemas = {}> extends HubServerClientBase<S> {
  constructor(options: HubServerClientOptions<S>) {
    super(options, webBackend);
  }
}

/** See the Node build: a campaign's dry run without a key; here a journal must be a `CampaignJournal` object. */
export async function dryRunAwards(awards: AwardSource, options: DryRunOptions = {}): Promise<CampaignSummary> {
  const campaign = await import("./campaign/dry-run-awards");
  return campaign.dryRunAwards(awards, options, campaignContext);
}

const signing = createSigning(webBackend);

/** See the Node build: the lowercase hex SHA-256 of the secret, here with WebCrypto. */
export function deriveSigningKey(secret: string, options?: { dangerouslyAllowBrowser?: boolean }): Promise<string> {
  return signing.deriveSigningKey(secret, options);
}

/** See the Node build: the request's signature, here with WebCrypto. */
export function signRequest(input: SignRequestInput): Promise<string> {
  return signing.signRequest(input);
}
/**
 * Which build of `public-hub-sdk/server` your runtime or bundler resolved: here WebCrypto (edge workers and other runtimes).
 * @example
 * ```ts
 * console.log(signerImplementation); // "webcrypto"
 * ```
 */
export const signerImplementation = "webcrypto" as "node:crypto" | "webcrypto" | "none";
export * from "./exports";
