import type { HubApiError, SigningDiagnostics } from "../core/errors/hub-api-error";

/**
 * A refused signed write tells its caller what was signed (`signing`: timestamp, method, path,
 * body hash, clock offset; never the key) and the usual causes, so a 401 can be debugged without
 * guessing. Compare `signing` with what the server computed, or with `signingPayload`.
 */
export function explainRefusal(error: HubApiError, signing: SigningDiagnostics): void {
  Object.defineProperty(error, "signing", { value: signing, enumerable: true });
  const offset = (signing.clockOffsetMs / 1000).toFixed(1);
  error.message +=
    ` — the signed write was refused. Usual causes: the secret does not belong to this clientId;` +
    ` a proxy rewrote the path or the body (signed: ${signing.method} ${signing.path}, body sha256 ${signing.bodySha256.slice(0, 12)}…);` +
    ` the clock (timestamp ${signing.timestamp}, offset to the server ${offset} s). See error.signing.`;
}
