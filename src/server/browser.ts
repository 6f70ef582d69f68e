/**
 * @module
 * What `public-hub-sdk/server` resolves to under the `browser` export condition: the same names,
 * no signing code, and every entry point throws {@link BrowserNotAllowedError}. The secret must
 * stay on the server, so a browser bundle cannot sign even by mistake.
 */
import { BrowserNotAllowedError } from "./browser-guard";
import type { HubSchemas } from "../core/types/schemas";
import type { HubServerClientOptions } from "./hub-server-client";

// This build has no signing code, so it offers no option: only where the import belongs.
const BROWSER_BUILD = '(Your bundler resolved the "browser" build of public-hub-sdk/server, which has no signing code: import it only from server code.)';

/**
 * Refuses to exist in a browser: award points from your backend. Its types refuse too, so a
 * bundler resolving the `browser` condition (Vite; TypeScript with
 * `"customConditions": ["browser"]`) reports the mistake at compile time. `S` is the real class's
 * (its response schemas), so that code typed `HubServerClient<typeof schemas>` names a type here too.
 * @deprecated public-hub-sdk/server does not run in a browser: the secret must stay on your server.
 */
export class HubServerClient<S extends HubSchemas = {}> {
  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  constructor(_options: BrowserOnlyRefusal) {
    throw new BrowserNotAllowedError(BROWSER_BUILD);
  }

  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  awardPoints(_award: BrowserOnlyRefusal): never {
    throw new BrowserNotAllowedError(BROWSER_BUILD);
  }
}

/**
 * What the browser build of `public-hub-sdk/server` accepts: one sentence as a string type, so that
 * any call to it is a compile error that says in words what is wrong (a `never` would only say
 * "not assignable to parameter of type 'never'").
 */
export type BrowserOnlyRefusal = "public-hub-sdk/server does not run in a browser: the secret must stay on your server; award points from your backend";

/** Refuses to run in a browser. */
export async function deriveSigningKey(_secret: string): Promise<string> {
  throw new BrowserNotAllowedError(BROWSER_BUILD);
}

/** Refuses to run in a browser. */
export async function signRequest(_input: unknown): Promise<string> {
  throw new BrowserNotAllowedError(BROWSER_BUILD);
}

/** Which build of `public-hub-sdk/server` was resolved: this browser build signs nothing. */
export const signerImplementation = "none" as "node:crypto" | "webcrypto" | "none";

export { BrowserNotAllowedError };
export type { HubServerClientOptions };
export * from "../index";
