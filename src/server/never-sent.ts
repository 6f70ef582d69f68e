/**
 * Failures that happen before a byte of the request leaves: name resolution, connecting, TLS, and
 * a port that fetch refuses to use. A write that failed so cannot have been applied. Only writes
 * ask, and only the server client writes: the list lives in the server entry, off the browser
 * bundle (a `HubClient` counts any failure of a write as possibly sent).
 */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused", "ERR_BAD_PORT", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/** Whether a failure with this system code (`systemErrorCode`) never left this machine. */
export const neverSent = (code: string | undefined): boolean => NEVER_SENT.has(String(code));
