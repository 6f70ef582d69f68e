/**
 * What a failed attempt tells about delivery: whether the request may have reached the server.
 * A write that may have reached it may have been applied, and its error says so.
 */

// Failures that happen before a byte of the request is sent: name resolution, connecting, TLS.
const NEVER_SENT = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_NONAME",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ConnectionRefused", // Bun
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);

const CODE = /^[A-Za-z][A-Za-z0-9_]{2,}$/;

/** The first system error code in an error's cause chain (undici nests it two causes deep). */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && CODE.test(code)) return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

/** The innermost message of the cause chain, with any query string cut (it may hold data). */
export function innermostMessage(error: unknown): string | undefined {
  let message: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message?.replace(/\?[^\s)"']*/g, "?…");
}

/** Whether a network failure may have happened after the request was (partly) sent. */
export const mayHaveBeenSent = (error: unknown): boolean => !NEVER_SENT.has(systemErrorCode(error) ?? "");

/** Whether an HTTP answer leaves the outcome of a write open (the server or a proxy failed). */
export const outcomeUnknown = (status: number): boolean => status >= 500 || status === 408;
