/**
 * `public-hub-sdk/server` for Node, Bun and Deno: signing with `node:crypto`. Never import it in
 * browser code: it needs the API secret.
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
import { nodeBackend } from "./crypto/node-backend";
import type { HubSchemas } from "../core/types/schemas";
import { HubServerClientBase, type HubServerClientOptions } from "./hub-server-client";
import { serverApi, type ServerRuntime } from "./server-api";
import type { SignRequestInput } from "./signing";

const runtime: ServerRuntime = {
  backend: nodeBackend,
  name: "node:crypto",
  // The file journal, loaded with `node:fs` only when a campaign asks for one.
  openJournal: async (path, hub) => {
    const { FileJournal } = await import("./campaign/file-journal");
    return FileJournal.open(path, { hub, invalid: campaignContext.invalid });
  },
};
const api = serverApi(runtime);

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
    super(options, runtime);
  }
}

/**
 * A dry run of a campaign that needs no key: every award validated, `ref` conflicts found, the
 * journal read (what a run would skip), nothing sent. The summary counts `wouldSend`; `applied` is
 * 0. Credentials are not checked: a real run may still be refused (see `CampaignStoppedError`).
 * A journal path needs the Node build; elsewhere a journal is a `CampaignJournal` object.
 * @throws {HubValidationError} for bad options or a journal that is not one, or of another hub.
 * @example
 * ```ts
 * const summary = await dryRunAwards(awards, { journal: "./season-7.journal", hub: "alpha" });
 * console.log(`${summary.wouldSend} to send, ${summary.skipped} already applied, ${summary.failed.length} invalid`);
 * ```
 */
export const dryRunAwards: (awards: AwardSource, options?: DryRunOptions) => Promise<CampaignSummary> = api.dryRunAwards;

/**
 * The signing key of a secret: the lowercase hex SHA-256 of its UTF-8 bytes, which is what the
 * server stores. Store this instead of the secret if you like, and pass it as `signingKey`.
 * @throws {HubValidationError} for an empty secret.
 * @example
 * ```ts
 * const signingKey = await deriveSigningKey(process.env.HUB_SECRET!);
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", signingKey });
 * ```
 */
export const deriveSigningKey: (secret: string, options?: { dangerouslyAllowBrowser?: boolean }) => Promise<string> = api.deriveSigningKey;
/**
 * The `x-api-signature` of one request: lowercase hex HMAC-SHA256 of `timestamp.METHOD.path.body`,
 * keyed with the signing key (from `signingKey`, or derived from `secret`). `HubServerClient`
 * does this for every attempt; use it directly for a hand-made request.
 * @throws {HubValidationError} for malformed input.
 * @example
 * ```ts
 * const signature = await signRequest({
 *   secret: process.env.HUB_SECRET!,
 *   timestamp: String(Math.floor(Date.now() / 1000)),
 *   method: "POST",
 *   path: "/api/v1/hub/alpha/bits/earn",
 *   body: '{"wallet":"0xabc","amount":10,"ref":"r1"}',
 * });
 * ```
 */
export const signRequest: (input: SignRequestInput) => Promise<string> = api.signRequest;
/**
 * Which build of `public-hub-sdk/server` your runtime or bundler resolved: here `node:crypto` (Node, Bun, Deno).
 * @example
 * ```ts
 * console.log(signerImplementation); // "node:crypto"
 * ```
 */
export const signerImplementation = runtime.name as "node:crypto" | "webcrypto" | "none";
export * from "./exports";
