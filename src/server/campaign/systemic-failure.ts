import { HubApiError, HubConnectionError } from "../../core/errors/index";

// Codes a server may give a refused signature or timestamp under 400 (the spec names no status).
const SIGNING_CODE = /signature|timestamp/i;

// Connection failures that say the address is wrong or dead, for every award alike (after each
// award's own retries): nothing listens on the port, the host does not resolve, fetch refuses the
// port, the certificate is not the server's. A reset or a timeout may pass, and is one award's.
const DEAD_ADDRESS = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_NONAME", "ERR_BAD_PORT", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/**
 * Why no later award of the campaign can succeed, when `error` says so; `undefined` for a failure of
 * this award only. The client already corrected its clock and signed again once before a refusal
 * reaches here, so a refused signature or timestamp is not a passing skew.
 */
export function systemicCause(error: unknown): string | undefined {
  if (error instanceof HubConnectionError && DEAD_ADDRESS.has(String(error.code))) {
    return `${error.code}: the server at ${error.origin ?? "the base URL"} cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)`;
  }
  if (!(error instanceof HubApiError)) return undefined;
  const code = error.code === undefined ? "" : ` ${error.code}`;
  if (error.status === 401) return `401${code}: the key is unknown, or the secret does not match it (signature or timestamp refused after the clock correction)`;
  if (error.status === 403) return `403${code}: the key is scoped to another hub, or the signature was refused`;
  if (error.status === 404) return `404${code}: no such hub, or the base URL has the wrong path prefix`;
  if (error.status === 400 && SIGNING_CODE.test(code)) return `400${code}: the signature or timestamp was refused after the clock correction`;
  return undefined;
}
