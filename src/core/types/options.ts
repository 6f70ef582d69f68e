import type { HubProfile } from "./profile";
import type { HubSchemas, ValidateMode } from "./schemas";
import type { StandardSchemaV1 } from "./standard-schema";
import type { HubTelemetry } from "./telemetry";

/** How much the client logs. */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/** Where log lines go: `console`, pino, winston… anything with these four methods. */
export interface Logger {
  /** Every attempt and retry wait. */
  debug(message: string): void;
  /** Retries, pauses the server asked for, clock corrections. */
  info(message: string): void;
  /** Something the caller may want to change: a write retried for the clock, an answer that misfits its schema. */
  warn(message: string): void;
  /** A write whose outcome is unknown. */
  error(message: string): void;
}

/** How failed attempts are retried. Only idempotent work is retried: reads, and awards (by `ref`). */
export interface RetryOptions {
  /**
   * Retries after failures (network errors, timeouts, 408, 5xx); `0` disables every retry. 429s
   * are the server pacing the client rather than failures: up to 8 more retries, each after the
   * wait the server said (`Retry-After`, its rate-limit fields) or one backoff step.
   * @default 2
   */
  limit?: number;
  /**
   * Base of the exponential backoff in milliseconds: about `backoff`, `2 × backoff`, `4 × backoff`…,
   * each scaled by a random jitter between 50 % and 100 % so that clients do not retry in step.
   * @default 300
   */
  backoff?: number;
  /** Longest backoff wait in milliseconds. @default 10_000 */
  maxBackoff?: number;
  /**
   * Longest `Retry-After` (seconds or HTTP date) the client waits, in milliseconds. A longer one is
   * not waited for: the call throws `RateLimitError` (or `ServerError`) with the server's answer.
   * @default 60_000
   */
  maxRetryAfter?: number;
}

/** What the logging hook hears about each attempt. It never carries credentials or bodies. */
export type RequestEvent = RequestStartEvent | ResponseEvent;

/** An attempt is about to be sent. */
export interface RequestStartEvent {
  /** Always `"request"`. */
  type: "request";
  /** HTTP method. */
  method: string;
  /** Full request URL. */
  url: string;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
}

/** An attempt got an HTTP answer (any status). */
export interface ResponseEvent {
  /** Always `"response"`. */
  type: "response";
  /** HTTP method. */
  method: string;
  /** Full request URL. */
  url: string;
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
  /** HTTP status of the answer. */
  status: number;
  /** The request id the server sent (`Request-Id`, `X-Request-Id`…), when sent. */
  requestId?: string | undefined;
}

/** Options of a {@link HubClient}, given once to its constructor. */
export interface HubClientOptions<S extends HubSchemas = HubSchemas> {
  /**
   * The API base address, including `/api/v1`. A bare origin gets `/api/v1` appended; a trailing
   * slash is fine. There is no default host.
   */
  baseUrl: string;
  /** The key's public client identifier, sent as `x-api-key`. Safe in a browser. */
  clientId: string;
  /** The slug of the hub the key is scoped to: every call addresses this hub. */
  hub: string;
  /**
   * Timeout of each attempt in milliseconds (retries get a fresh one); `false` disables it. With
   * the default retries a server that never answers costs 3 attempts plus backoffs (about 30 s):
   * bound a whole call with a per-call `signal: AbortSignal.timeout(ms)`.
   * @default 10_000
   */
  timeout?: number | false;
  /** Retries of failed reads (network errors, 408, 429, 5xx), as a count or as {@link RetryOptions}. @default 2 */
  retry?: number | RetryOptions;
  /**
   * Attempts of this client in flight at once; more wait their turn, first come first served.
   * Beyond that, the client paces itself by what the server says: `Retry-After`, and the
   * rate-limit fields (`RateLimit`/`RateLimit-Policy`, `X-RateLimit-*`) of its answers.
   * @default 32
   */
  maxConcurrency?: number;
  /**
   * The key of your hub's envelope that holds each answer's payload (`{ "data": …, "meta": … }`):
   * reads and awards return the payload, and `withResponse().envelope` keeps the whole body. An
   * answer without that key is returned as it is.
   * @default undefined (no envelope)
   */
  unwrap?: string;
  /**
   * How your hub speaks, as `public-hub doctor --profile` wrote it (see docs/your-hub.md): this
   * client reads its `envelope` (when `unwrap` is not given); `HubServerClient` also its award
   * signals and its rate limit's `resetLagSeconds`, and checks the whole profile.
   * @default undefined (every choice inferred)
   */
  profile?: HubProfile;
  /**
   * A `fetch` to use instead of `globalThis.fetch` (a proxy agent, a test double…). Without it,
   * each attempt uses `globalThis.fetch` as it is at that moment, so a `fetch` patched after the
   * client was built (MSW's `server.listen()`, Next.js, tracing) is the one used.
   * @default globalThis.fetch, read at each attempt
   * @example fetch: (input, init) => undiciFetch(input, { ...init, dispatcher })
   */
  fetch?: typeof globalThis.fetch;
  /** Extra headers sent with every request. They cannot replace `x-api-key` or the signature headers. @default {} */
  headers?: Record<string, string>;
  /**
   * How much the client logs: `"debug"` every attempt (method, origin and path, status, attempt,
   * duration, request id) and retry wait; `"info"` retries, pauses the server asked for and clock
   * corrections; `"warn"` a write retried for the clock, an answer that misfits its schema, an observer that threw; `"error"` a write
   * whose outcome is unknown (`"info"` when the caller aborted it). Keys, signatures, bodies and query strings are never logged.
   * @default the PUBLIC_HUB_LOG environment variable, else "warn"
   */
  logLevel?: LogLevel;
  /** Where log lines go. @default console */
  logger?: Logger;
  /**
   * Called before each attempt and after each response, for logging or metrics. What it throws is
   * logged and never changes the call's outcome.
   * @default undefined
   */
  onRequest?: (event: RequestEvent) => void;
  /**
   * The response shapes of your hub, declared once: one Standard Schema (zod, valibot, arktype…)
   * per operation. Each read returns its schema's output type and is checked as `validate` says;
   * an operation without a schema keeps its lenient type. A call's own `schema` overrides.
   * @default {} (no schemas: bodies are returned as sent)
   * @example { holder: z.object({ wallet: z.string(), bits: z.number() }) }
   */
  schemas?: S;
  /**
   * What an answer that does not fit its schema does: `"throw"` a `HubSchemaError`; `"warn"`
   * returns it as sent and logs each operation and field path once; `"off"` checks nothing at run
   * time. A call's own `validate` overrides. With `"warn"`, each operation and field path is
   * logged once per client.
   * @default "throw"
   * @example process.env.NODE_ENV === "production" ? "warn" : "throw"
   */
  validate?: ValidateMode;
  /**
   * Telemetry of every public call: `openTelemetry()` from `public-hub-sdk/otel` (spans, metrics,
   * `traceparent`), or any {@link HubTelemetry}. Without it nothing is recorded and nothing is
   * imported.
   * @default undefined
   */
  telemetry?: HubTelemetry;
}

/**
 * Options of one call, given as its last argument; they override the client's for that call.
 * @example
 * ```ts
 * await hub.getHub({ signal: AbortSignal.timeout(2_000), retry: 0 });
 * ```
 */
export interface RequestOptions<T = unknown> {
  /** Cancels the call, including a backoff wait between retries. */
  signal?: AbortSignal;
  /**
   * A schema (zod, zod/mini, valibot… anything implementing Standard Schema) that validates and
   * narrows the response body, instead of the client's `schemas` for this call. A mismatch throws
   * `HubSchemaError` (a `HubResponseError` with `problem: "schema-mismatch"`), as `validate` says.
   */
  schema?: StandardSchemaV1<unknown, T>;
  /**
   * Whether this call checks its answer against its schema (the call's `schema`, else the
   * client's `schemas`); see the client's `validate`.
   * @default the client's `validate`
   */
  validate?: ValidateMode;
  /** Per-attempt timeout for this call, in milliseconds. @default the client's `timeout` */
  timeout?: number | false;
  /** Retries for this call. @default the client's `retry` */
  retry?: number | RetryOptions;
}
