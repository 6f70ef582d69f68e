/**
 * @module
 * What `public-hub-sdk/server` resolves to under the `browser` export condition: the same names as
 * every other build, no signing code, and every entry point refuses: its types take no value (a
 * compile error where a bundler resolves the `browser` condition: Vite; TypeScript with
 * `"customConditions": ["browser"]`), and it throws {@link BrowserNotAllowedError} when run. The
 * secret must stay on the server, so a browser bundle cannot sign even by mistake.
 */
import { BrowserNotAllowedError } from "./browser-guard";

/**
 * No value has this type: what the browser build of `public-hub-sdk/server` accepts, so that any
 * call to it is a compile error there.
 */
export type BrowserOnlyRefusal = never & { readonly "public-hub-sdk/server does not run in a browser": unique symbol };

const refuse = (): never => {
  throw new BrowserNotAllowedError();
};

/**
 * Refuses to exist in a browser: award points from your backend. Its types refuse too.
 * @deprecated public-hub-sdk/server does not run in a browser: the secret must stay on your server.
 */
export class HubServerClient {
  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  constructor(_options: BrowserOnlyRefusal) {
    refuse();
  }

  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  awardPoints(_award: BrowserOnlyRefusal, _options?: BrowserOnlyRefusal): never {
    return refuse();
  }

  /** @deprecated public-hub-sdk/server does not run in a browser: award points from your backend. */
  awardMany(_awards: BrowserOnlyRefusal, _options?: BrowserOnlyRefusal): never {
    return refuse();
  }
}

/** @deprecated Refuses to run in a browser. */
export async function deriveSigningKey(_secret: BrowserOnlyRefusal, _options?: BrowserOnlyRefusal): Promise<never> {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export async function signRequest(_input: BrowserOnlyRefusal): Promise<never> {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export async function dryRunAwards(_awards: BrowserOnlyRefusal, _options?: BrowserOnlyRefusal): Promise<never> {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export function parseAward(_input: BrowserOnlyRefusal): never {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export function signingPayload(_parts: BrowserOnlyRefusal): never {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export function awardPath(_options: BrowserOnlyRefusal): never {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export function refusalKind(_answer: BrowserOnlyRefusal): never {
  return refuse();
}

/** @deprecated Refuses to run in a browser. */
export function clockOffsetOf(_headers: BrowserOnlyRefusal, _now?: BrowserOnlyRefusal): never {
  return refuse();
}

/** @deprecated Refuses to be used in a browser: any property of it throws. */
export const awardSchema: BrowserOnlyRefusal = new Proxy({}, { get: refuse, has: refuse, ownKeys: refuse }) as BrowserOnlyRefusal;

/** Which build of `public-hub-sdk/server` was resolved: this browser build signs nothing. */
export const signerImplementation = "none" as "node:crypto" | "webcrypto" | "none";

export { BrowserNotAllowedError };
// Plain values: the same in every build.
export { SIGNATURE_WINDOW_SECONDS } from "./server-clock";
export { CAMPAIGN_DEFAULTS } from "./campaign/defaults";
// The campaign errors are plain error classes: code that only checks `instanceof` may import them.
export { RefConflictError } from "./campaign/ref-conflict-error";
export { CampaignStoppedError } from "./campaign/campaign-stopped-error";
// Every type of the other builds (one list: ./exports); the values above replace its values here.
export type * from "./exports";
export * from "../index";
