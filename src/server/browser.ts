/**
 * @module
 * What `public-hub-sdk/server` resolves to under the `browser` export condition: the same names as
 * every other build, no signing code, and every entry point refuses: its types take no value (a
 * compile error where a bundler resolves the `browser` condition: Vite; TypeScript with
 * `"customConditions": ["browser"]`), and it throws {@link BrowserNotAllowedError} when run. The
 * secret must stay on the server, so a browser bundle cannot sign even by mistake.
 */
import { BrowserNotAllowedError } from "./browser-guard";
import type { HubSchemas } from "../core/types/schemas";

// This build has no signing code, so it offers no option: only where the import belongs.
const BROWSER_BUILD = '(Your bundler resolved the "browser" build of public-hub-sdk/server, which has no signing code: import it only from server code.)';

/**
 * What the browser build of `public-hub-sdk/server` accepts: one sentence as a string type, so that
 * any call to it is a compile error that says in words what is wrong (a `never` would only say
 * "not assignable to parameter of type 'never'"). Not exported: every build exports the same names.
 */
type BrowserOnlyRefusal = "public-hub-sdk/server does not run in a browser: the secret must stay on your server; award points from your backend";

const refuse = (): never => {
  throw new BrowserNotAllowedError({ hint: BROWSER_BUILD });
};

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

// Every function refuses: its parameters take no value, and a call throws (or rejects, where the
// other builds return a promise).
type Refused = (first: BrowserOnlyRefusal, ...rest: BrowserOnlyRefusal[]) => never;
type RefusedAsync = (first: BrowserOnlyRefusal, ...rest: BrowserOnlyRefusal[]) => Promise<never>;
const refuseAsync = async (): Promise<never> => refuse();

/** @deprecated Refuses to run in a browser. */
export const deriveSigningKey: RefusedAsync = refuseAsync;
/** @deprecated Refuses to run in a browser. */
export const signRequest: RefusedAsync = refuseAsync;
/** @deprecated Refuses to run in a browser. */
export const dryRunAwards: RefusedAsync = refuseAsync;
/** @deprecated Refuses to run in a browser. */
export const parseAward: Refused = refuse;
/** @deprecated Refuses to run in a browser. */
export const signingPayload: Refused = refuse;
/** @deprecated Refuses to run in a browser. */
export const awardPath: Refused = refuse;
/** @deprecated Refuses to run in a browser. */
export const refusalKind: Refused = refuse;
/** @deprecated Refuses to run in a browser. */
export const clockOffsetOf: Refused = refuse;
/** @deprecated Refuses to run in a browser (a browser client checks the profile fields it reads). */
export const parseHubProfile: Refused = refuse;
/** @deprecated Refuses to run in a browser (a shared budget is for server processes). */
export const redisBudget: Refused = refuse;
/** @deprecated Refuses to be used in a browser: any property of it throws. */
export const awardSchema: BrowserOnlyRefusal = new Proxy({}, { get: refuse, has: refuse, ownKeys: refuse }) as BrowserOnlyRefusal;

/** Which build of `public-hub-sdk/server` was resolved: this browser build signs nothing. */
export const signerImplementation = "none" as "webcrypto" | "none";

export { BrowserNotAllowedError };
// Plain values: the same in every build.
// Not from hub-server-client: this build must never reach the signing code, nor the file journal it loads.
export { SIGNATURE_WINDOW_SECONDS } from "./server-clock";
export { CAMPAIGN_DEFAULTS } from "./campaign/types";
// The campaign errors are plain error classes: code that only checks `instanceof` may import them.
export { RefConflictError, CampaignStoppedError } from "./campaign/errors";
// Every type of the signing build; the values above replace its values here.
export type * from "./index";
export * from "../index";
