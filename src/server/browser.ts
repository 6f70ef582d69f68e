/**
 * @module
 * What `public-hub-sdk/server` resolves to under the `browser` export condition: the same names,
 * no signing code, and every entry point throws {@link BrowserNotAllowedError}. The secret must
 * stay on the server, so a browser bundle cannot sign even by mistake.
 */
import { BrowserNotAllowedError } from "./browser-guard";
import type { HubServerClientOptions } from "./hub-server-client";

/** Refuses to exist in a browser: award points from your backend. */
export class HubServerClient {
  constructor(_options: HubServerClientOptions) {
    throw new BrowserNotAllowedError();
  }
}

/** Refuses to run in a browser. */
export async function deriveSigningKey(_secret: string): Promise<string> {
  throw new BrowserNotAllowedError();
}

/** Refuses to run in a browser. */
export async function signRequest(_input: unknown): Promise<string> {
  throw new BrowserNotAllowedError();
}

/** Which build of `public-hub-sdk/server` was resolved: this browser build signs nothing. */
export const signerImplementation = "none" as "node:crypto" | "webcrypto" | "none";

export { BrowserNotAllowedError };
export type { HubServerClientOptions };
export * from "../index";
