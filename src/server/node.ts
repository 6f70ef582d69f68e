/**
 * @module
 * `public-hub-sdk/server` for Node, Bun and Deno: signing with `node:crypto`. Never import it in
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
import { nodeBackend } from "./crypto/node-backend";
import { HubServerClientBase, type HubServerClientOptions } from "./hub-server-client";
import { createSigning } from "./signing";

/**
 * {@link HubClient} plus signed awards. Construct it on your server with the key's secret.
 *
 * @example
 * ```ts
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET });
 * const result = await server.awardPoints({ wallet: "0xabc", kind: "daily-login", ref: "login-2026-11-22:0xabc" });
 * ```
 */
export class HubServerClient extends HubServerClientBase {
  constructor(options: HubServerClientOptions) {
    super(options, nodeBackend);
  }
}

export const { deriveSigningKey, signRequest } = createSigning(nodeBackend);
/**
 * Which build of `public-hub-sdk/server` your runtime or bundler resolved: here `node:crypto` (Node, Bun, Deno).
 * @example
 * ```ts
 * console.log(signerImplementation); // "node:crypto"
 * ```
 */
export const signerImplementation = "node:crypto" as "node:crypto" | "webcrypto" | "none";
export * from "./exports";
