/**
 * The write policy: how a signed write goes through the pipeline, in one place beside the verdict
 * (`Call.mayHaveBeenApplied`). Each attempt is signed just before it is sent, in server time;
 * every answer, reads included, teaches the server's clock; a write refused because its timestamp
 * was outside the server's window is sent again once, signed in server time, its verdict carried
 * over; a refusal says what was signed; a failure that may have been applied says so.
 *
 * The pipeline owns the interfaces ({@link AttemptSigner}, {@link ServerTime}); the server entry
 * supplies their implementations (its HMAC signer, its clock) when it constructs a client. A
 * `HubClient` has no policy: nothing it sends is signed. Only the server entry imports this
 * module (the pipeline imports its types), so none of it is in the browser bundle.
 */
import { HubApiError, type SigningDiagnostics } from "../errors/hub-api-error";
import type { HubError } from "../errors/hub-error";
import type { Log } from "../log";
import { REFUSAL_STATUSES, refusalKind } from "../refusal";
import type { Call, CallSpec } from "./call";

/**
 * How far a signed write's `x-api-timestamp` may be from the server's time, in seconds, either way
 * (spec, part 5). The mock (`public-hub-sdk/mock`) keeps its own copy of this number on purpose: it
 * checks the SDK from the spec with its own code, and a wrong value here must not pass by agreeing
 * with itself.
 * @example
 * ```ts
 * if (Math.abs(offsetMs) > SIGNATURE_WINDOW_SECONDS * 1000) console.warn("signatures would be refused without the clock correction");
 * ```
 */
export const SIGNATURE_WINDOW_SECONDS = 300;

/** `Date` has whole seconds, and the refusal took its time to come back. */
const SKEW_MARGIN_SECONDS = 2;

/** What a write's signature covers (spec part 5), as `signingPayload` joins it. */
export interface SignedFields {
  timestamp: string;
  method: string;
  path: string;
  body: string;
}

/** Signs with the client's key (the server entry's HMAC backend); never holds the secret itself. */
export interface AttemptSigner {
  /** The `x-api-signature` of these fields: lowercase hex HMAC-SHA256 of their signing payload. */
  sign(fields: SignedFields): Promise<string>;
  /** Lowercase hex SHA-256 of a body, for a refused write's `signing`. */
  sha256Hex(text: string): string | Promise<string>;
}

/** The server's clock as seen from this machine (the server entry's `ServerClock`). */
export interface ServerTime {
  /** Milliseconds to add to the local clock to get server time. */
  readonly offsetMs: number;
  /** Unix seconds in server time, as `x-api-timestamp` carries them. */
  timestamp(): string;
  /** Learns from an answer's headers; true when the offset moved enough to say so. */
  observe(headers: Headers): boolean;
}

/** What one attempt signed: a refusal's `signing`, but for the body's hash (computed only then). */
export type SignedAttempt = Omit<SigningDiagnostics, "bodySha256">;

/** What an error of a write that may have been applied adds to the end of its message. */
export const MAY_HAVE_BEEN_APPLIED = " It may have been applied: retrying with the same ref is safe.";

/**
 * Failures that happen before a byte of the request leaves: name resolution, connecting, TLS, and
 * a port that fetch refuses to use. A write that failed so cannot have been applied (a `HubClient`,
 * which has no policy, counts any failure of a write as possibly sent).
 */
const NEVER_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EAI_NONAME", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused", "ERR_BAD_PORT", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID"]);

/** What the server entry hands the pipeline when it constructs a client. */
export interface WritePolicyParts {
  signer: AttemptSigner;
  clock: ServerTime;
  log: Log;
}

export class WritePolicy {
  readonly #signer: AttemptSigner;
  readonly #clock: ServerTime;
  readonly #log: Log;

  constructor({ signer, clock, log }: WritePolicyParts) {
    this.#signer = signer;
    this.#clock = clock;
    this.#log = log;
  }

  /**
   * One write, top-down: sent (each attempt signed by {@link sign}); when refused for the clock,
   * sent once more; an error that may have been applied says so at the end of its message.
   * `exchange` is one send and the decoding of its answer, so an unusable 2xx body is noted too.
   */
  async send<R extends { attempts: number }>(spec: CallSpec, exchange: (spec: CallSpec) => Promise<R>): Promise<R> {
    try {
      try {
        return await exchange(spec);
      } catch (error) {
        if (!this.#refusedForSkew(error)) throw error;
        this.#log("warn", "clock-retry", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
        // Once, now signed in server time. The verdict carries over (the first send may have been
        // applied: the second call starts from it), and the refused call's attempts are this write's too.
        const resent = await exchange({ ...spec, appliedEarlier: error.mayHaveBeenApplied });
        return { ...resent, attempts: (error.attempts ?? 0) + resent.attempts };
      }
    } catch (error) {
      if ((error as HubError | undefined)?.mayHaveBeenApplied === true) (error as Error).message += MAY_HAVE_BEEN_APPLIED;
      throw error;
    }
  }

  /** Signs one attempt, after the rate gate and just before it is sent; returns what it signed. */
  async sign(request: Request, body: string): Promise<SignedAttempt> {
    const signed = { timestamp: this.#clock.timestamp(), method: request.method, path: new URL(request.url).pathname, clockOffsetMs: this.#clock.offsetMs };
    request.headers.set("x-api-timestamp", signed.timestamp);
    request.headers.set("x-api-signature", await this.#signer.sign({ ...signed, body }));
    return signed;
  }

  /** Every answer's headers, reads included: the clock is right before the first write. */
  observe(headers: Headers): void {
    if (this.#clock.observe(headers)) this.#log("info", "clock", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
  }

  /** Whether a failure with this system code (`systemErrorCode`) never left this machine. */
  neverSent(code: string | undefined): boolean {
    return NEVER_SENT.has(String(code));
  }

  /**
   * A call failed with `error` (the SDK's error): a refused signed write says what was signed
   * ({@link explainRefusal}), and one that may have been applied is logged, an error unless the
   * caller chose it by aborting.
   */
  async failed(error: unknown, call: Call): Promise<void> {
    const signed = call.signed;
    if (signed && error instanceof HubApiError && REFUSAL_STATUSES.has(error.status)) {
      explainRefusal(error, { ...signed, bodySha256: await this.#signer.sha256Hex(call.spec.body ?? "") });
    }
    if ((error as HubError).mayHaveBeenApplied) this.#log(call.spec.signal?.aborted ? "info" : "error", "outcome-unknown", () => ({ call: call.what, error: (error as Error).name }));
  }

  /**
   * A refusal of an attempt signed outside the server's window. The refusal's `Date` already moved
   * the clock ({@link observe}: unless it was a cached copy, or no plausible time), so the server's
   * time is now the clock's.
   */
  #refusedForSkew(error: unknown): error is HubApiError {
    // Nothing signed (not a refusal, or not of a signed write): NaN, which is never outside the window.
    const signedAt = Number((error as HubApiError | undefined)?.signing?.timestamp);
    return Math.abs(Number(this.#clock.timestamp()) - signedAt) > SIGNATURE_WINDOW_SECONDS - SKEW_MARGIN_SECONDS;
  }
}

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
