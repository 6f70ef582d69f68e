import type { Logger, LogLevel } from "../log";
import type { HubSchemas, ValidateMode } from "./schemas";
import type { StandardSchemaV1 } from "./standard-schema";
import type { HubTelemetry } from "../telemetry/types";

/**
 * How failed attempts are retried. Only idempotent work is retried: reads, and awards (by `ref`).
 * @example
 * ```ts
 * const hub = new HubClient({ baseUrl, clientId, hub: "alpha", retry: { limit: 4, backoff: 500 } });
 * ```
 */
export interface RetryOptions {
  /**
   * Retries after failures (network errors, timeouts, 408, 5xx); `0` disables every retry. 429s
   * are the rate gate's signal rather than failures: up to 8 more retries, paced by the gate.
   * @default 2
   * @example { limit: 5 }
   */
  limit?: number;
  /**
   * Base of the exponential backoff in milliseconds: about `backoff`, `2 × backoff`, `4 × backoff`…,
   * each scaled by a random jitter between 50 % and 100 % so that clients do not retry in step.
   * @default 300
   * @example { backoff: 1000 }
   */
  backoff?: number;
  /**
   * Longest backoff wait in milliseconds.
   * @default 10_000
   * @example { maxBackoff: 30_000 }
   */
  maxBackoff?: number;
  /**
   * Longest `Retry-After` (seconds or HTTP date) the client waits, in milliseconds. A longer one is
   * not waited for: the call throws `RateLimitError` (or `ServerError`) with the server's answer.
   * @default 60_000
   * @example { maxRetryAfter: 5_000 }
   */
  maxRetryAfter?: number;
}

/**
 * The client's rate gate: every attempt of every call (reads and awards, retries too) passes it.
 * When any answer is a 429 with `Retry-After`, every queued and retrying request of the client
 * waits it out (each with a small random extra, so they do not return in step). A 429 without
 * `Retry-After` sets the client's send rate to 95 % of what the server let through in about the
 * last second; it comes back within a quarter second and then doubles each half second until
 * throttled again. Each retry costs tokens of a retry budget
 * (5, or 10 after a timeout) and each success gives one back, so a storm of failures stops
 * retrying instead of multiplying the load.
 * @example
 * ```ts
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret, rateLimit: { maxConcurrency: 8, maxRequestsPerSecond: 50 } });
 * ```
 */
export interface RateLimitOptions {
  /**
   * Attempts of this client in flight at once; more wait in the gate, first come first served.
   * @default 32
   * @example 8
   */
  maxConcurrency?: number;
  /**
   * The most attempts this client starts per second (a token bucket holding 100 ms of it). The
   * client also learns a lower rate by itself when the server throttles without `Retry-After`.
   * @default Infinity
   * @example 50
   */
  maxRequestsPerSecond?: number;
  /**
   * Retry tokens: a retry costs 5 (10 after a timeout), a success gives 1 back. When a retry
   * cannot be paid, the call fails with its last error, saying so. `Infinity` disables the budget.
   * @default 500
   * @example 100
   */
  retryBudget?: number;
}

/**
 * What the logging hook hears about each attempt. It never carries credentials or bodies.
 * @example
 * ```ts
 * const onRequest = (event: RequestEvent) => {
 *   if (event.type === "response") console.log(event.status, event.url, event.requestId);
 * };
 * ```
 */
export type RequestEvent = RequestStartEvent | ResponseEvent;

/**
 * An attempt is about to be sent.
 * @example
 * ```ts
 * const event: RequestStartEvent = { type: "request", method: "GET", url: "https://h/api/v1/hub/a", attempt: 1 };
 * ```
 */
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

/**
 * An attempt got an HTTP answer (any status).
 * @example
 * ```ts
 * const event: ResponseEvent = { type: "response", method: "GET", url: "https://h/api/v1/hub/a", attempt: 1, status: 200 };
 * ```
 */
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
  /** The `x-request-id` response header, when sent. */
  requestId?: string | undefined;
}

/**
 * Options of a {@link HubClient}, given once to its constructor.
 * @example
 * ```ts
 * const options: HubClientOptions = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha", hub: "alpha" };
 * ```
 */
export interface HubClientOptions<S extends HubSchemas = HubSchemas> {
  /**
   * The API base address, including `/api/v1`. A bare origin gets `/api/v1` appended; a trailing
   * slash is fine. There is no default host.
   * @example "https://hub.example.com/api/v1"
   */
  baseUrl: string;
  /**
   * The key's public client identifier, sent as `x-api-key`. Safe in a browser.
   * @example "pk_alpha_123"
   */
  clientId: string;
  /**
   * The slug of the hub the key is scoped to: every call addresses this hub.
   * @example "alpha"
   */
  hub: string;
  /**
   * Timeout of each attempt in milliseconds (retries get a fresh one); `false` disables it. With
   * the default retries a server that never answers costs 3 attempts plus backoffs (about 30 s):
   * bound a whole call with a per-call `signal: AbortSignal.timeout(ms)`.
   * @default 10_000
   * @example 5_000
   */
  timeout?: number | false;
  /**
   * Retries of failed reads (network errors, 408, 429, 5xx), as a count or as {@link RetryOptions}.
   * @default 2
   * @example { limit: 3, backoff: 500 }
   */
  retry?: number | RetryOptions;
  /**
   * The client's rate gate: concurrency, rate and retry budget shared by all its calls.
   * @default { maxConcurrency: 32, maxRequestsPerSecond: Infinity, retryBudget: 500 }
   * @example { maxConcurrency: 16, maxRequestsPerSecond: 50 }
   */
  rateLimit?: RateLimitOptions;
  /**
   * A `fetch` to use instead of `globalThis.fetch` (a proxy agent, a test double…). Without it,
   * each attempt uses `globalThis.fetch` as it is at that moment, so a `fetch` patched after the
   * client was built (MSW's `server.listen()`, Next.js, tracing) is the one used.
   * @default globalThis.fetch, read at each attempt
   * @example fetch: (input, init) => undiciFetch(input, { ...init, dispatcher })
   */
  fetch?: typeof globalThis.fetch;
  /**
   * Extra headers sent with every request. They cannot replace `x-api-key` or the signature headers.
   * @default {}
   * @example { "user-agent": "my-bot/1.0" }
   */
  headers?: Record<string, string>;
  /**
   * Whether identical reads in flight (same URL, same per-call `timeout` and `retry`) share one
   * request. Each caller still gets its own decoded copy and may abort on its own; the shared
   * request is cancelled only when every caller has aborted. Writes are never shared.
   * @default true
   * @example false
   */
  dedupeReads?: boolean;
  /**
   * How much the client logs: `"debug"` every attempt (method, origin and path, status, attempt,
   * duration, request id) and retry wait; `"info"` retries, rate-limit pauses and clock
   * corrections; `"warn"` a spent retry budget or a write retried for the clock; `"error"` a write
   * whose outcome is unknown (`"info"` when the caller aborted it). Keys, signatures, bodies and query strings are never logged.
   * @default the PUBLIC_HUB_LOG environment variable, else "warn"
   * @example "debug"
   */
  logLevel?: LogLevel;
  /**
   * Where log lines go.
   * @default console
   * @example pino()
   */
  logger?: Logger;
  /**
   * Called before each attempt and after each response, for logging or metrics.
   * @default undefined
   * @example onRequest: (event) => console.log(event.type, event.method, event.url, event.attempt)
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
   * time. A call's own `validate` overrides.
   * @default "throw"
   * @example process.env.NODE_ENV === "production" ? "warn" : "throw"
   */
  validate?: ValidateMode;
  /**
   * Telemetry of every public call: `openTelemetry()` from `public-hub-sdk/otel` (spans, metrics,
   * `traceparent`), or any {@link HubTelemetry}. Without it nothing is recorded and nothing is
   * imported; the `public-hub-sdk:call` diagnostics channel is there either way (Node, Bun, Deno).
   * @default undefined
   * @example telemetry: openTelemetry()
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
  /**
   * Cancels the call, including a backoff wait between retries.
   * @example { signal: AbortSignal.timeout(2_000) }
   */
  signal?: AbortSignal;
  /**
   * A schema (zod, zod/mini, valibot… anything implementing Standard Schema) that validates and
   * narrows the response body, instead of the client's `schemas` for this call. A mismatch throws
   * `HubSchemaError` (a `HubResponseError` with `problem: "schema-mismatch"`), as `validate` says.
   * @example { schema: z.object({ slug: z.string(), name: z.string() }) }
   */
  schema?: StandardSchemaV1<unknown, T>;
  /**
   * Whether this call checks its answer against its schema (the call's `schema`, else the
   * client's `schemas`); see the client's `validate`.
   * @default the client's `validate`
   * @example { validate: "off" }
   */
  validate?: ValidateMode;
  /**
   * Per-attempt timeout for this call, in milliseconds.
   * @default the client's `timeout`
   */
  timeout?: number | false;
  /**
   * Retries for this call.
   * @default the client's `retry`
   */
  retry?: number | RetryOptions;
}
