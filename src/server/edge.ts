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
import type { AwardSource, CampaignSummary, DryRunOptions } from "./campaign/types";
import { webBackend } from "./crypto/web-backend";
import type { HubSchemas } from "../core/types/schemas";
import { HubServerClientBase, type HubServerClientOptions } from "./hub-server-client";
import { serverApi, type ServerRuntime } from "./server-api";
import type { SignRequestInput } from "./signing";

// The same names and signatures as the Node build (src/server/node.ts, where they are documented);
// only the runtime differs: WebCrypto, and no file system for a journal path.
const runtime: ServerRuntime = { backend: webBackend, name: "webcrypto" };
const api = serverApi(runtime);

/** See the Node build. */
export class HubServerClient<S extends HubSchemas = {}> extends HubServerClientBase<S> {
  constructor(options: HubServerClientOptions<S>) {
    super(options, runtime);
  }
}
/** See the Node build. */
export const dryRunAwards: (awards: AwardSource, options?: DryRunOptions) => Promise<CampaignSummary> = api.dryRunAwards;
/** See the Node build. */
export const deriveSigningKey: (secret: string, options?: { dangerouslyAllowBrowser?: boolean }) => Promise<string> = api.deriveSigningKey;
/** See the Node build. */
export const signRequest: (input: SignRequestInput) => Promise<string> = api.signRequest;
/** See the Node build: here `"webcrypto"`. */
export const signerImplementation = runtime.name as "node:crypto" | "webcrypto" | "none";
export * from "./exports";
