import { HubError } from "./hub-error";

/**
 * What the SDK knows about a non-2xx answer; the input of every {@link HubApiError}.
 * @example
 * ```ts
 * const init: ApiErrorInit = { status: 409, code: "conflict", message: "409: taken", body: {}, headers: {} };
 * const error = new HubApiError(init);
 * ```
 */
export interface ApiErrorInit {
  /** HTTP status code. */
  status: number;
  /** Machine-readable code from the body (`code`, `error.code`, `type`…), when there is one. */
  code: string | undefined;
  /** Human-readable message from the body, or a fallback built from the status and body excerpt. */
  message: string;
  /** The body as received: parsed JSON when it was JSON, otherwise the text. */
  body: unknown;
  /** Response headers (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** Whether the call was a write that may have been applied (see {@link HubError.mayHaveBeenApplied}). @default false */
  mayHaveBeenApplied?: boolean | undefined;
  /** Seconds from `Retry-After`, when the server sent a readable one; carried by {@link RateLimitError}. */
  retryAfter?: number | undefined;
}

/**
 * What a refused signed write had signed: compare it with what the server computed. Never the key.
 * @example
 * ```ts
 * if (error instanceof UnauthorizedError && error.signing) console.log(error.signing.path, error.signing.bodySha256);
 * ```
 */
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

/**
 * The server answered with a non-2xx status. Subclasses name the common statuses; any other
 * status is a plain `HubApiError`. Nothing here holds the request's credentials.
 *
 * @example
 * ```ts
 * try {
 *   await hub.getHub();
 * } catch (error) {
 *   if (error instanceof HubApiError) console.log(error.status, error.code, error.requestId);
 * }
 * ```
 */
export class HubApiError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubApiError";
  /** HTTP status code. */
  declare readonly status: number;
  /** Error code from the body, when present. */
  declare readonly code: string | undefined;
  /** The error body as received: parsed JSON, or its text (the first 4 KB) when it was not JSON. */
  declare readonly body: unknown;
  /** Value of the `x-request-id` response header, when present: quote it to the API operator. */
  declare readonly requestId: string | undefined;
  /** Response headers (lower-case names). */
  declare readonly headers: Readonly<Record<string, string>>;
  /** For a refused signed write (400, 401, 403): what was signed. */
  declare readonly signing?: SigningDiagnostics;

  constructor(init: ApiErrorInit) {
    super(init);
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.headers = init.headers;
    this.requestId = init.headers["x-request-id"];
  }
}
