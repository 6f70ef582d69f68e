import { HubApiError } from "../../core/errors/index";

// Codes a server may give a refused signature or timestamp under 400 (the spec names no status).
const SIGNING_CODE = /signature|timestamp/i;

/**
 * Why no later award of the campaign can succeed, when `error` says so; `undefined` for a failure of
 * this award only. The client already corrected its clock and signed again once before a refusal
 * reaches here, so a refused signature or timestamp is not a passing skew.
 */
export function systemicCause(error: unknown): string | undefined {
  if (!(error instanceof HubApiError)) return undefined;
  const code = error.code === undefined ? "" : ` ${error.code}`;
  if (error.status === 401) return `401${code}: the key is unknown, or the secret does not match it (signature or timestamp refused after the clock correction)`;
  if (error.status === 403) return `403${code}: the key is scoped to another hub, or the signature was refused`;
  if (error.status === 404) return `404${code}: no such hub, or the base URL has the wrong path prefix`;
  if (error.status === 400 && SIGNING_CODE.test(code)) return `400${code}: the signature or timestamp was refused after the clock correction`;
  return undefined;
}
