/**
 * @module
 * What `public-hub-sdk/server` resolves to under the `browser` export condition: the same names,
 * no signing code, and every entry point throws {@link BrowserNotAllowedError}. The secret must
 * stay on the server, so a browser bundle cannot sign even by mistake.
 */
import { BrowserNotAllowedError } from "./browser-guard";
import type { HubSchemas } from "../core/types/schemas";
import type { HubServerClientOptions } from "./hub-server-client";

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
    throw new BrowserNotAllowedError();
  }

  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  awardPoints(_award: BrowserOnlyRefusal): never {
    throw new BrowserNotAllowedError();
  }
}

/**
 * No value has this type: what the browser build of `public-hub-sdk/server` accepts, so that any
 * call to it is a compile error there.
 */
export type BrowserOnlyRefusal = never & { readonly "public-hub-sdk/server does not run in a browser": unique symbol };

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
