import { systemErrorCode } from "../core/http/delivery";

/**
 * Which failed write attempts cannot have reached the server. Only writes ask (only a write can
 * have been applied), so this list lives in the server entry, off the browser bundle.
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

/** Whether a network failure may have happened after the request was (partly) sent. */
export const mayHaveBeenSent = (error: unknown): boolean => !NEVER_SENT.has(String(systemErrorCode(error)));
