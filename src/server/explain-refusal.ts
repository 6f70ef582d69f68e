import type { HubApiError, SigningDiagnostics } from "../core/errors/hub-api-error";
import { refusalKind } from "./refusal";

/**
 * A refused signed write (400, 401, 403) tells its caller what was signed (`signing`: timestamp,
 * method, path, body hash, clock offset; never the key). A refusal of the signature or the
 * timestamp (a 401, or a 400/403 whose code or message names one) also gets the usual causes, so
 * it can be debugged without guessing; any other refusal keeps the server's own message ("unknown
 * kind", "key is scoped to another hub") alone.
 */
export function explainRefusal(error: HubApiError, signing: SigningDiagnostics): void {
  Object.defineProperty(error, "signing", { value: signing, enumerable: true });
  if (refusalKind(error) !== "credentials") return;
  const offset = (signing.clockOffsetMs / 1000).toFixed(1);
  error.message +=
    ` — the signed write was refused. Usual causes: the secret does not belong to this clientId;` +
    ` a proxy rewrote the path or the body (signed: ${signing.method} ${signing.path}, body sha256 ${signing.bodySha256.slice(0, 12)}…);` +
    ` the clock (timestamp ${signing.timestamp}, offset to the server ${offset} s). See error.signing.`;
}
