import { HubApiError } from "./errors/hub-api-error";
import { HubConnectionError } from "./errors/hub-connection-error";

/**
 * What a refused request is about, which says what to fix (the spec gives no error code for a
 * bad signature or timestamp, so 400, 401 and 403 may all be one):
 * - `"credentials"`: a 401 (unknown key, or the signature or timestamp refused), or a 400/403
 *   whose code or message names a signature or a timestamp: the key, the secret or the clock;
 * - `"scope"`: any other 403: the key is scoped to another hub;
 * - `"not-found"`: a 404: no such hub, or a wrong path prefix;
 * - `"request"`: any other 400: this request's own input (an award's field).
 * @example
 * ```ts
 * const kind: RefusalKind | undefined = refusalKind(error); // "credentials" for a wrong secret
 * ```
 */
export type RefusalKind = "credentials" | "scope" | "not-found" | "request";

/** Statuses a server may refuse a signed write's signature or timestamp with: a refused write carries `signing` for them. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

const NAMES_SIGNING = /signature|timestamp/i;

/**
 * The one classification of refusals, used by the client (which refusals get the signing
 * checklist), by campaigns (which stop early) and by the CLI's `doctor`. `undefined` for an answer
 * that is no refusal: a 2xx, a 408, a 429, a 5xx, any other status.
 * @example
 * ```ts
 * try {
 *   await server.awardPoints(award);
 * } catch (error) {
 *   if (error instanceof HubApiError && refusalKind(error) === "credentials") console.error("check HUB_SECRET and the clock");
 * }
 * ```
 */
export function refusalKind(answer: { status: number; code?: string | undefined; message?: string | undefined }): RefusalKind | undefined {
  const { status } = answer;
  if (status === 401) return "credentials";
  if (status === 404) return "not-found";
  if (status !== 400 && status !== 403) return undefined;
  if (NAMES_SIGNING.test(`${answer.code ?? ""} ${answer.message ?? ""}`)) return "credentials";
  return status === 400 ? "request" : "scope";
}

// Why no later award escapes each kind of refusal (a `"request"` refusal is this award's own).
const SYSTEMIC = {
  credentials: "the signature or timestamp was refused after the clock correction",
  scope: "the key is scoped to another hub, or the signature was refused",
  "not-found": "no such hub, or the base URL has the wrong path prefix",
};
// Connection failures that say the address is wrong or dead, for every award alike (after each
// award's own retries): nothing listens on the port, the host does not resolve, fetch refuses the
// port, the certificate is not the server's. A reset or a timeout may pass, and is one award's.
const DEAD_ADDRESS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_NONAME", "ERR_BAD_PORT", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"]);
const UNKNOWN_KEY = "the key is unknown, or the secret does not match it (signature or timestamp refused after the clock correction)";

/**
 * Why no later award of a campaign can succeed, when `error` says so; `undefined` for a failure of
 * this award only (a `"request"` refusal, a 5xx, a reset or a timeout). A refusal of the kinds
 * above, or a dead address (refused connection, unknown host, refused certificate), is systemic.
 * The client already corrected its clock and signed again once before a refusal reaches here, so a
 * refused signature or timestamp is not a passing skew.
 */
export function systemicCause(error: unknown): string | undefined {
  if (error instanceof HubConnectionError && DEAD_ADDRESS.has(String(error.code))) {
    return `${error.code}: the server at ${error.origin ?? "the base URL"} cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)`;
  }
  if (!(error instanceof HubApiError)) return undefined;
  const kind = refusalKind(error);
  if (kind === undefined || kind === "request") return undefined;
  return `${error.status}${error.code === undefined ? "" : ` ${error.code}`}: ${error.status === 401 ? UNKNOWN_KEY : SYSTEMIC[kind]}`;
}
