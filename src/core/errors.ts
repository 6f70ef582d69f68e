/**
 * Every error the SDK throws, in one file, and the one factory that picks a class for a status
 * ({@link apiError}). No error ever holds the request: it carries `x-api-key` and signatures.
 */

/** Constructor input of every error; each class adds its own fields. */
interface ErrorInit {
  message: string;
  cause?: unknown;
  mayHaveBeenApplied?: boolean | undefined;
}

/**
 * Base class of every error the SDK throws, so one `instanceof HubError` catches them all.
 * `toJSON()` carries every field a class declares.
 *
 * @example
 * ```ts
 * try {
 *   await hub.getHub();
 * } catch (error) {
 *   if (error instanceof HubError) console.error(error.name, error.message);
 * }
 * ```
 */
export class HubError extends Error {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubError";
  /**
   * True when a write failed after it may have reached the server (a reset or timeout after
   * sending, a 5xx): it may have been applied. Retrying with the same `ref` is safe either way.
   * Always false for reads and for failures before anything was sent.
   */
  declare readonly mayHaveBeenApplied: boolean;
  /**
   * How many attempts the call sent before it failed (retries included); undefined when nothing
   * was attempted (bad input) or the error is not one call's.
   */
  declare readonly attempts?: number | undefined;

  /** @internal Made by the SDK. */
  constructor(init: ErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.mayHaveBeenApplied = init.mayHaveBeenApplied ?? false;
  }

  /**
   * What `JSON.stringify` shows: the name, the message (which `Error` hides from JSON) and every
   * field the class declares, except an answer's `body`, `headers` and `data` (size; headers may
   * carry cookies; bodies name wallets). Never key material, never the request.
   * @example
   * ```ts
   * logger.error(JSON.stringify(error)); // {"name":"NotFoundError","message":"404 …","status":404,…}
   * ```
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [field, value] of Object.entries(this)) if (value !== undefined && !NOT_SERIALIZED.has(field)) json[field] = value;
    return json;
  }
}

const NOT_SERIALIZED = new Set(["body", "headers", "data"]);

/** One problem found in an input, or named by the server for a field of the request. */
export interface ValidationIssue {
  /** Where the problem is, e.g. `["amount"]`; empty for the value itself. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What is wrong, in words. */
  readonly message: string;
  /** A code for the kind of problem, e.g. `"too_small"`. */
  readonly code: string;
}

/** A field path as messages and log records show it: `entries.0.staked`, `(root)` for the body. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>) => path.map(String).join(".") || "(root)";
const describeIssues = (issues: ReadonlyArray<ValidationIssue>) => issues.map((issue) => (issue.path.length > 0 ? `${fieldPath(issue.path)}: ` : "") + issue.message).join("; ");

/** Bad input, found before anything was sent: no request reached the server. */
export class HubValidationError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubValidationError" as const;
  /** Every problem found, not only the first. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;

  /** @param init `what` names the input in the message ("award", "client options"); `issues` are every problem found. */
  constructor(init: { what: string; issues: ReadonlyArray<ValidationIssue> }) {
    super({ message: `Invalid ${init.what}: ${describeIssues(init.issues)}` });
    this.issues = init.issues;
  }
}

/** What a refused signed write had signed: compare it with what the server computed. Never the key. */
export interface SigningDiagnostics {
  /** The `x-api-timestamp` sent. */
  timestamp: string;
  /** The method signed, upper case. */
  method: string;
  /** The path signed (with `/api/v1` and percent-encoding), as sent. */
  path: string;
  /** Lowercase hex SHA-256 of the exact body string sent and signed. */
  bodySha256: string;
  /** The client's clock offset to the server's `Date` when signing, in milliseconds. */
  clockOffsetMs: number;
}

/** What the SDK read from a non-2xx answer (`answer.ts`, `readError`). */
interface ApiErrorInit extends ErrorInit {
  status: number;
  code?: string | undefined;
  detail?: string | undefined;
  issues?: ReadonlyArray<ValidationIssue> | undefined;
  body?: unknown;
  headers: Readonly<Record<string, string>>;
  requestId?: string | undefined;
  retryAfterMs?: number | undefined;
}

/**
 * The server answered with a non-2xx status. Subclasses name the common statuses; any other
 * status is a plain `HubApiError`. It reads the error body by the standard it follows (RFC 9457
 * problem details, and the common JSON shapes): `code`, `detail` and the fields it names.
 */
export class HubApiError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubApiError";
  /** HTTP status code. */
  declare readonly status: number;
  /** The error's code from the body (`code`, `error.code`, a problem's `type`…), when present. */
  declare readonly code: string | undefined;
  /** The human-readable explanation from the body (a problem's `detail`, `message`…), when present. */
  declare readonly detail: string | undefined;
  /** The request's fields the server named (a problem's `errors[]` or `invalid-params`, `{ errors: [{ source: { pointer } }] }`, `param`). */
  declare readonly issues: ReadonlyArray<ValidationIssue>;
  /** The error body as received: parsed JSON, or its text (the first 4 KB) when it was not JSON. */
  declare readonly body: unknown;
  /** The request id the server sent (`Request-Id`, `X-Request-Id`…): quote it to the API operator. */
  declare readonly requestId: string | undefined;
  /** Response headers (lower-case names). */
  declare readonly headers: Readonly<Record<string, string>>;
  /** For a refused signed write (400, 401, 403): what was signed. */
  declare readonly signing?: SigningDiagnostics;

  /** @internal Made by the SDK ({@link apiError}). */
  constructor(init: ApiErrorInit) {
    super(init);
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.issues = init.issues ?? [];
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = init.requestId;
  }
}

/** 400: the server refused the request's input (or, for a write, perhaps its signature). */
export class BadRequestError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "BadRequestError" as const;
}
/** 401: the key is unknown, or a write's signature or timestamp was refused. */
export class UnauthorizedError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "UnauthorizedError" as const;
}
/** 403: the key is scoped to another hub. */
export class ForbiddenError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "ForbiddenError" as const;
}
/** 404: no such hub (or a wrong path prefix in the base URL). */
export class NotFoundError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "NotFoundError" as const;
}
/** 409: the request conflicts with the hub's state (for an award: its `ref` went with other parameters). A duplicate the hub declares is no error: `duplicate: true`. */
export class ConflictError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "ConflictError" as const;
}
/** 422: the hub understood the request and refused its content (FastAPI, Rails and others answer a bad body so); `issues` names the fields. */
export class UnprocessableEntityError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "UnprocessableEntityError" as const;
}
/** 5xx: the server (or a proxy before it) failed. */
export class ServerError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "ServerError" as const;
}
/** 429: rate limited, after the client's own retries. */
export class RateLimitError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "RateLimitError" as const;
  /** Milliseconds to wait before trying again, from `Retry-After` (seconds or HTTP date), when sent: like every duration of the SDK, in ms. */
  declare readonly retryAfterMs: number | undefined;

  /** @internal Made by the SDK ({@link apiError}). */
  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

const BY_STATUS: Record<number, typeof HubApiError> = { 400: BadRequestError, 401: UnauthorizedError, 403: ForbiddenError, 404: NotFoundError, 409: ConflictError, 422: UnprocessableEntityError, 429: RateLimitError };

/** The one place that picks the error class for a status. @internal */
export function apiError(init: ApiErrorInit): HubApiError {
  const ErrorClass = BY_STATUS[init.status] ?? (init.status >= 500 ? ServerError : HubApiError);
  return new ErrorClass(init);
}

/** The request got no HTTP answer: refused connection, DNS failure, reset, TLS error. */
export class HubConnectionError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubConnectionError";
  /** The system error code found in the cause chain (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`…), when there is one. */
  declare readonly code: string | undefined;
  /** The origin the request was sent to (never its path or query). */
  declare readonly origin: string | undefined;

  /** @internal Made by the SDK. */
  constructor(init: Partial<ErrorInit> & { code?: string | undefined; origin?: string | undefined } = {}) {
    super({ ...init, message: init.message ?? "Connection error: no HTTP response." });
    this.code = init.code;
    this.origin = init.origin;
  }
}

/** An attempt took longer than the `timeout` option, body included. */
export class HubTimeoutError extends HubConnectionError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubTimeoutError" as const;
  /** The per-attempt timeout in milliseconds. */
  declare readonly timeout: number;

  constructor(init: { timeout: number; origin?: string | undefined; mayHaveBeenApplied?: boolean | undefined }) {
    super({ ...init, message: `Request to ${init.origin ?? "the API"} timed out after ${init.timeout} ms.`, code: "ETIMEDOUT" });
    this.timeout = init.timeout;
  }
}

/** The caller's `signal` aborted the call. */
export class HubAbortError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubAbortError" as const;

  constructor(init: { cause?: unknown; mayHaveBeenApplied?: boolean | undefined } = {}) {
    super({ ...init, message: "Request aborted by the caller." });
  }
}

/**
 * A redirect the SDK does not follow: any redirect of a write (its signature covers one path), or
 * a read's redirect to another origin (where `x-api-key` must not go).
 */
export class HubRedirectError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubRedirectError" as const;
  /** The redirect status (301, 302, 303, 307, 308…); 0 in a browser, which hides redirects. */
  declare readonly status: number;
  /** The `Location` the server named, resolved against the request URL; undefined when hidden or absent. */
  declare readonly location: string | undefined;

  constructor(init: { status: number; location: string | undefined; reason: string; mayHaveBeenApplied?: boolean | undefined }) {
    super({ message: `Not following the ${init.status || "opaque"} redirect${init.location ? ` to ${init.location}` : ""}: ${init.reason}.`, mayHaveBeenApplied: init.mayHaveBeenApplied });
    this.status = init.status;
    this.location = init.location;
  }
}

/** Why a successful (2xx) response could not be used. */
export type ResponseProblem = "empty-body" | "invalid-json" | "unexpected-shape" | "schema-mismatch";

/**
 * The server answered 2xx but the body is not usable: empty, not JSON, not the JSON kind the call
 * returns, or not matching its schema. The raw text is kept in `body`.
 */
export class HubResponseError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubResponseError";
  /** The HTTP status of the answer (2xx). */
  declare readonly status: number;
  /** What is wrong with the body. */
  declare readonly problem: ResponseProblem;
  /** The body: its text (the first 4 KB) for `empty-body` and `invalid-json`, the parsed JSON otherwise. */
  declare readonly body: unknown;
  /** A short, single-line excerpt of the body for logs. */
  declare readonly bodyExcerpt: string;
  /** Schema issues, for `schema-mismatch`. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(init: { status: number; problem: ResponseProblem; body: unknown; bodyExcerpt: string; detail: string; issues?: ReadonlyArray<ValidationIssue>; mayHaveBeenApplied?: boolean | undefined }) {
    super({ message: `Unusable ${init.status} response (${init.problem}): ${init.detail}`, mayHaveBeenApplied: init.mayHaveBeenApplied });
    this.status = init.status;
    this.problem = init.problem;
    this.body = init.body;
    this.bodyExcerpt = init.bodyExcerpt;
    this.issues = init.issues ?? [];
  }
}

/**
 * A 2xx answer that does not fit the schema declared for its operation under `validate: "throw"`.
 * It names the operation and every failing field path with its rule, and keeps the data exactly as
 * the server sent it. On an award the server answered with success, so the award **was applied**:
 * `applied` and `mayHaveBeenApplied` are true, and `awardMany` counts it applied (in `mismatched`).
 */
export class HubSchemaError extends HubResponseError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubSchemaError" as const;
  /** The operation whose answer did not fit: a key of `schemas` (`"holder"`, `"award"`…), or a subclass call's method and path. */
  declare readonly operation: string;
  /** The body exactly as the server sent it (parsed JSON, untouched by the schema). */
  declare readonly data: unknown;
  /** True for an award: the server answered 2xx, so the award was applied. False for reads. */
  declare readonly applied: boolean;

  constructor(init: { operation: string; status: number; data: unknown; issues: ReadonlyArray<ValidationIssue>; applied: boolean; bodyExcerpt: string }) {
    const fields = init.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join("; ");
    const detail = `the ${init.operation} answer does not fit its schema: ${fields}`;
    super({ ...init, problem: "schema-mismatch", body: init.data, detail, mayHaveBeenApplied: init.applied });
    this.operation = init.operation;
    this.data = init.data;
    this.applied = init.applied;
  }
}

/** `public-hub-sdk/server` was loaded in a browser: signing needs the secret, which must stay on a server. */
export class BrowserNotAllowedError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "BrowserNotAllowedError" as const;

  /** @param init `hint`: what the build that refused can offer (the server build names `dangerouslyAllowBrowser`). */
  constructor(init: { hint?: string | undefined } = {}) {
    super({
      message:
        "public-hub-sdk/server does not run in a browser: signing awards needs the API secret, and the secret " +
        "must stay on your server. Award points from your backend and call it from the page." +
        (init.hint ? ` ${init.hint}` : ""),
    });
  }
}

/**
 * Failures that happen before a byte of the request leaves this machine: name resolution,
 * connecting, TLS, a port that fetch refuses. A write that failed so was not applied. The first
 * ones (up to `ERR_BAD_PORT`… the whole list but the transient) also say the address is dead for
 * every award of a campaign: see {@link systemicCause}.
 */
export const NEVER_SENT: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_NONAME", "ERR_BAD_PORT", "CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", "SELF_SIGNED_CERT_IN_CHAIN", "UNABLE_TO_VERIFY_LEAF_SIGNATURE", "ERR_TLS_CERT_ALTNAME_INVALID", "ERR_SSL_WRONG_VERSION_NUMBER", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused"]);
// The codes of NEVER_SENT that may pass (a DNS hiccup, a route, a connect timeout) are one award's, not systemic.
const TRANSIENT = new Set(["EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "UND_ERR_CONNECT_TIMEOUT", "ConnectionRefused"]);

/**
 * What a refused request is about, which says what to fix (the spec gives no error code for a
 * bad signature or timestamp, so 400, 401 and 403 may all be one):
 * - `"key"`: a 401 whose code or message names the API key and no signature or timestamp ("Invalid API key");
 * - `"credentials"`: any other 401, or a 400/403 whose code or message names a signature or a timestamp;
 * - `"scope"`: any other 403: the key is scoped to another hub;
 * - `"not-found"`: a 404: no such hub, or a wrong path prefix;
 * - `"request"`: any other 400: this request's own input (an award's field).
 */
export type RefusalKind = "key" | "credentials" | "scope" | "not-found" | "request";

/** Statuses a server may refuse a signed write's signature or timestamp with: a refused write carries `signing` for them. */
export const REFUSAL_STATUSES: ReadonlySet<number> = new Set([400, 401, 403]);

/**
 * The one classification of refusals, used by the server client (which refusals get the signing
 * checklist), campaigns (which stop early) and the CLI's `doctor`. `undefined` for an answer that
 * is no refusal.
 * @example
 * ```ts
 * if (error instanceof HubApiError && refusalKind(error) === "credentials") console.error("check HUB_SECRET and the clock");
 * ```
 */
export function refusalKind(answer: { status: number; code?: string | undefined; message?: string | undefined }): RefusalKind | undefined {
  const { status } = answer;
  const said = `${answer.code ?? ""} ${answer.message ?? ""}`;
  const signature = /signature|timestamp/i.test(said);
  if (status === 401) return !signature && /api[\s_-]?key|client[\s_-]?id/i.test(said) ? "key" : "credentials";
  if (status === 404) return "not-found";
  // 422 is the body refused as FastAPI, Rails and others answer it (issue 35: doctor failed a right secret).
  if (status !== 400 && status !== 403 && status !== 422) return undefined;
  if (signature) return "credentials";
  return status === 403 ? "scope" : "request";
}

const SYSTEMIC = {
  key: "the hub refused the API key (x-api-key): it is unknown, revoked or not this hub's",
  credentials: "the key is unknown, or the secret does not match it (signature or timestamp refused after the clock correction)",
  scope: "the key is scoped to another hub, or the signature was refused",
  "not-found": "no such hub, or the base URL has the wrong path prefix",
};

/**
 * Why no later award of a campaign can succeed, when `error` says so; `undefined` for a failure of
 * this award only (a `"request"` refusal, a 5xx, a reset or a timeout). The client already
 * corrected its clock and signed again once before a refusal reaches here.
 */
export function systemicCause(error: unknown): string | undefined {
  if (error instanceof HubConnectionError && NEVER_SENT.has(String(error.code)) && !TRANSIENT.has(String(error.code))) {
    // https:// to a server of plain HTTP: its answer is no TLS.
    if (error.code === "ERR_SSL_WRONG_VERSION_NUMBER") return `${error.code}: the server at ${error.origin} answers plain HTTP, not TLS: use http:// in the base URL`;
    return `${error.code}: the server at ${error.origin ?? "the base URL"} cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)`;
  }
  if (!(error instanceof HubApiError)) return undefined;
  const kind = refusalKind(error);
  if (kind === undefined || kind === "request") return undefined;
  const credentials = kind === "credentials" && error.status !== 401 ? "the signature or timestamp was refused after the clock correction" : SYSTEMIC[kind];
  return `${error.status}${error.code === undefined ? "" : ` ${error.code}`}: ${credentials}`;
}
