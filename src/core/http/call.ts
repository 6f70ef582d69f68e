/**
 * One call, from the first attempt to its verdict. The call owns everything that is its own: the
 * attempts, whether one may have reached the server, the retry decisions and the retry budget,
 * and the verdict "may have been applied". ky runs the retry loop, the backoff with its jitter,
 * `Retry-After`, and each attempt's timeout; this object hands ky the options and hooks it acts on.
 */
import { HTTPError, TimeoutError, type Options as KyOptions } from "ky";
import { CLIENT_DEFAULTS } from "../defaults";
import { HubError } from "../errors/hub-error";
import { where, type Log } from "../log";
import type { RequestEvent, RetryOptions } from "../types/options";
import { readText, retryAfterOf } from "./body";
import { RETRY_COST, TIMEOUT_RETRY_COST, type RateGate } from "../rate-gate";
import type { CallTrace } from "../telemetry/trace-call";
import type { SignedAttempt, WritePolicy } from "./write-policy";

/** Statuses worth another attempt: timeouts, rate limits, and transient server/proxy failures. */
export const RETRY_STATUSES = [408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524];

/**
 * Retries a call may spend on 429s beyond `limit`: a throttle is the rate gate's signal to slow
 * down, and the gate paces the retry, so it is not counted as a failure. Without this, a campaign
 * near the server's limit would lose the odd award to three 429s in a row.
 */
export const THROTTLE_RETRIES = 8;

/** Retry options with their defaults filled in. */
export const resolveRetry = (retry: number | RetryOptions | undefined): Required<RetryOptions> =>
  typeof retry === "number" ? { ...CLIENT_DEFAULTS.retry, limit: retry } : { ...CLIENT_DEFAULTS.retry, ...retry };

/**
 * The first system error code in an error's cause chain (undici nests it two causes deep). Fetch
 * refusing a port names no code: it is given `ERR_BAD_PORT`.
 */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors, message } = current as { code?: unknown; cause?: unknown; errors?: unknown; message?: unknown };
    if (typeof code === "string" && /^[A-Za-z][A-Za-z0-9_]{2,}$/.test(code)) return code;
    if (message === "bad port") return "ERR_BAD_PORT";
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

/** An error answer after which a write may have been applied: a 5xx, or a 408 (the server gave up reading, perhaps late). */
const mayHaveApplied = (status: number) => status >= 500 || status === 408;
/** A duration for people: "850 ms", "10 s", "30.7 s". */
function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/** What a call is: built by the client methods. */
export interface CallSpec {
  method: "GET" | "POST";
  /** The URL: relative to the client's base address (ky's `prefixUrl`), or absolute after a redirect. */
  input: string;
  query?: Record<string, string | number | undefined> | undefined;
  /** Whether to send `x-api-key` (the discovery read does not). */
  authenticated: boolean;
  /** The exact body string: the one sent, and the one a signature covers. */
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  timeout?: number | false | undefined;
  retry?: number | RetryOptions | undefined;
  /** An earlier call of the same write (the re-send for the clock) may have been applied: the verdict starts there. */
  appliedEarlier?: boolean | undefined;
  /** The public call's observers (diagnostics channel, telemetry), when someone listens. */
  trace?: CallTrace | undefined;
}

/** What every call of one client shares. */
export interface CallContext {
  gate: RateGate;
  /** The user's `fetch`; without one, `globalThis.fetch` as it is at each attempt (MSW, Next.js and tracing patch it after clients exist). */
  fetch?: typeof globalThis.fetch | undefined;
  timeout: number | false;
  retry: Required<RetryOptions>;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** The client's base address with a trailing slash: ky's `prefixUrl`. */
  prefixUrl: string;
  /**
   * How writes are signed, and the server's clock read from every answer: the server client's,
   * given at its construction. Without one (a `HubClient`), nothing is signed, and any failure of
   * a write may have been sent.
   */
  writes?: WritePolicy | undefined;
  log: Log;
}

export class Call {
  readonly spec: CallSpec;
  readonly timeout: number | false;
  readonly #context: CallContext;
  readonly #retry: Required<RetryOptions>;
  #attempt = 0;
  /** Attempts before the last one that were cut by the timeout. */
  #timedOut = 0;
  /**
   * The last attempt's signal. ky's timeout aborts it (a deaf `fetch` may never settle to say so);
   * attempts share ky's controller until one times out, so it is read when the next attempt starts.
   */
  #lastSignal: AbortSignal | undefined;
  /** The last attempt got an answer (its status, whatever became of its body). */
  #lastAnswered = false;
  readonly #startedAt = Date.now();
  /** Attempts answered with a 429: a throttle is paced by the gate, not counted as a failure. */
  #throttles = 0;
  /**
   * How the latest attempt ended, for the log and the trace: its status ("429": a throttle),
   * "timeout", or the network error's message; with an answer's `Retry-After`, read once. Written
   * by the attempt itself, and read by the retry decision, its delay and its log line alike,
   * whatever order ky asks them in.
   */
  #why = "timeout";
  #retryAfter?: ReturnType<typeof retryAfterOf>;
  /** An attempt is between `fetch` and its answer. */
  #inFlight = false;
  /** An attempt may have been applied: it got a 2xx, 5xx or 408, or failed after it may have left. */
  #reached: boolean;
  /** An attempt before the latest one (or an earlier call, `appliedEarlier`) may have been applied. */
  #reachedEarlier = false;
  /** The latest failure of `fetch` itself (a network error), as opposed to a hook's or a signer's. */
  #fetchFailure: unknown;
  /** A retry was refused because the client's retry budget was spent. */
  budgetSpent = false;
  /** What the latest attempt signed (a write of the server client). */
  signed: SignedAttempt | undefined;
  /** Each answer's body, read within its attempt. */
  readonly #bodies = new WeakMap<Response, string>();

  constructor(spec: CallSpec, context: CallContext) {
    this.spec = spec;
    this.#reached = spec.appliedEarlier ?? false;
    this.#context = context;
    this.timeout = spec.timeout ?? context.timeout;
    this.#retry = spec.retry === undefined ? context.retry : resolveRetry(spec.retry);
  }

  /** What the call is, for log lines: method, origin and path, never the query. */
  get what(): string {
    return `${this.spec.method} ${where(new URL(this.spec.input, this.#context.prefixUrl))}`;
  }

  /** The body of an answer of this call, read within its attempt ("" when an error answer's body was cut). */
  bodyOf(response: Response): string {
    return this.#bodies.get(response) ?? "";
  }

  /** Attempts sent so far (handed to `fetch`). */
  get attempts(): number {
    return this.#attempt;
  }

  /** What the call's attempts were, for a final failure's message: "3 attempts, each cut at 10 s, 30.7 s in all". */
  attemptsSummary(): string {
    // Called for a failure the caller did not abort: an aborted attempt signal is ky's timeout.
    const timedOut = this.#timedOut + (this.#lastSignal?.aborted ? 1 : 0);
    const cut = timedOut === 0 ? "" : `, ${timedOut === this.#attempt ? (timedOut === 1 ? "" : "each ") : `${timedOut} `}cut at ${seconds(Number(this.timeout))}`;
    return `${this.#attempt} attempt${this.#attempt === 1 ? "" : "s"}${cut}, ${seconds(Date.now() - this.#startedAt)} in all`;
  }

  /** Whether `error` is the network failure of an attempt (it got no HTTP answer, or not all of a 2xx body). */
  isFetchFailure(error: unknown): boolean {
    return error === this.#fetchFailure;
  }

  /**
   * The one verdict on a failed write: may it have been applied? Yes when an attempt may have
   * reached the server, or when the call ended (timeout, abort) while an attempt was under way.
   */
  mayHaveBeenApplied(): boolean {
    return this.spec.method !== "GET" && (this.#reached || this.#inFlight);
  }

  /**
   * For a write that succeeded: may an attempt before the last have been applied? Then a
   * "duplicate" answer may describe this call's own award, its first answer lost. (Only a write's
   * result carries it: a read's earlier attempts applied nothing.)
   */
  mayHaveBeenAppliedEarlier(): boolean {
    return this.#reachedEarlier;
  }

  /** ky's options for this call. */
  kyOptions(): KyOptions {
    const { spec } = this;
    const retry = this.#retry;
    return {
      method: spec.method,
      ...(spec.input.includes("://") && { prefixUrl: "" }),
      ...(spec.query && { searchParams: spec.query }),
      ...((!spec.authenticated || spec.body !== undefined) && {
        headers: { ...(!spec.authenticated && { "x-api-key": undefined }), ...(spec.body !== undefined && { "content-type": "application/json" }) },
      }),
      ...(spec.signal && { signal: spec.signal }),
      timeout: this.timeout,
      retry: {
        limit: retry.limit === 0 ? 0 : retry.limit + THROTTLE_RETRIES,
        methods: [spec.method], // ky lower-cases them
        statusCodes: RETRY_STATUSES,
        // No maxRetryAfter for ky: #shouldRetry already refused a longer Retry-After (retryAfterOf).
        backoffLimit: retry.maxBackoff,
        // After a failure, exponential in the failures so far; after a 429, one base step (the gate paces).
        delay: () => retry.backoff * (this.#why === "429" ? 1 : 2 ** (this.#failures - 1)),
        jitter: (delay) => this.#logRetry(delay * (0.5 + Math.random() / 2)),
        shouldRetry: ({ error }) => this.#shouldRetry(error),
      },
      hooks: { beforeRequest: [(request) => this.#beforeRequest(request)] },
      fetch: (input) => this.#send(input as Request),
    };
  }

  /** Failed attempts so far that were not throttles (every attempt before a retry decision failed). */
  get #failures(): number {
    return this.#attempt - this.#throttles;
  }

  /** The rate gate, then the signer. ky starts the attempt's timeout after this: waiting for a turn is not the server's time. */
  async #beforeRequest(request: Request): Promise<void> {
    const { gate, writes } = this.#context;
    this.spec.trace?.gate(gate.pausedUntil);
    await gate.acquire(request.signal);
    try {
      // A write is signed here, after its turn and just before it is sent: each attempt in server time.
      if (writes && this.spec.method === "POST") this.signed = await writes.sign(request, this.spec.body ?? "");
    } catch (error) {
      this.#context.gate.release();
      throw error;
    }
  }

  /**
   * One attempt. ky hands its `Request`, but `fetch` gets the URL and the exact body string: a
   * `Request`'s body is a stream, which patched fetches (Next.js) send chunked, without a length.
   * Redirects are never followed by `fetch` (see `Transport`).
   */
  async #send(request: Request): Promise<Response> {
    const { gate, log, onRequest, writes } = this.#context;
    const attempt = ++this.#attempt;
    // The last attempt was cut by the timeout while in flight: it may have reached the server, even
    // when its fetch, deaf to the abort, never settled to say so.
    if (this.#lastSignal?.aborted) {
      this.#timedOut++;
      // Cut before its answer came, it may have been applied; an answer's status already decided.
      this.#reached ||= !this.#lastAnswered;
    }
    this.#lastSignal = request.signal;
    this.#lastAnswered = false;
    // Until an answer or a failure says otherwise, only ky's timeout ends an attempt (a deaf fetch never settles).
    this.#why = "timeout";
    this.#reachedEarlier = this.#reached;
    const sentAt = Date.now();
    let response: Response | undefined;
    let failure: unknown;
    const answered = this.spec.trace?.attempt(request);
    try {
      onRequest?.({ type: "request", method: request.method, url: request.url, attempt });
      this.#inFlight = true;
      try {
        response = await (this.#context.fetch ?? globalThis.fetch).call(globalThis, request.url, { method: request.method, headers: request.headers, body: this.spec.body ?? null, signal: request.signal, redirect: "manual" });
      } catch (error) {
        // Cut by an abort or a timeout, an attempt may have been sent; a refused connection was not.
        this.#reached ||= request.signal.aborted || !writes?.neverSent(systemErrorCode(error));
        throw (failure = this.#networkFailure(error, request.signal));
      } finally {
        this.#inFlight = false;
        answered?.(response?.status, failure);
        log("debug", "attempt", () => ({ method: request.method, url: where(request.url), attempt, ms: Date.now() - sentAt, status: response?.status, requestId: response?.headers.get("x-request-id") ?? undefined, error: (failure as Error | undefined)?.message }));
      }
      this.#lastAnswered = true;
      // The status decides the verdict when the headers arrive: a 2xx was applied, whatever becomes of its body.
      this.#reached ||= response.ok || mayHaveApplied(response.status);
      this.#why = String(response.status);
      if (response.status === 429) this.#throttles++;
      this.#retryAfter = retryAfterOf(response.headers, this.#retry.maxRetryAfter);
      gate.observe(response.status, this.#retryAfter.waitMs, sentAt);
      writes?.observe(response.headers);
      onRequest?.({ type: "response", method: request.method, url: request.url, attempt, status: response.status, requestId: response.headers.get("x-request-id") ?? undefined });
      // The body is read here, within the attempt: ky's timeout then bounds the whole attempt, body
      // included, and a 2xx body cut mid-stream is a failed attempt (retried), not a raw TypeError.
      // An error answer whose body alone was cut keeps its status.
      try {
        this.#bodies.set(response, await readText(response, request.signal));
      } catch (error) {
        if (!response.ok && !request.signal.aborted) return response;
        throw this.#networkFailure(error, request.signal);
      }
      return response;
    } finally {
      gate.release();
    }
  }

  /** An attempt that got no HTTP answer, or not all of a 2xx body: a timeout when ky's signal cut it. */
  #networkFailure(error: unknown, signal: AbortSignal): unknown {
    const message = (error as Error | null)?.message;
    // Only an Error's failure is retried (ky wraps anything else), so only its message is logged.
    this.#why = signal.aborted ? "timeout" : String(message);
    return (this.#fetchFailure = error);
  }

  /**
   * Whether to retry: `false` refuses; `true` retries after the backoff; `undefined` lets ky retry
   * after a 429's or 503's `Retry-After` (only a readable one: ky would read "-3" as no wait).
   * Errors that are not about the network or the server's state are final; a `Retry-After` beyond
   * `maxRetryAfter` is final; failures count against `limit`, 429s against
   * {@link THROTTLE_RETRIES}; every retry is paid from the client's budget.
   */
  #shouldRetry(error: Error): boolean | undefined {
    if (this.spec.signal?.aborted || error instanceof HubError) return false;
    if (error instanceof TimeoutError) return this.#failure(TIMEOUT_RETRY_COST);
    if (this.isFetchFailure(error)) return this.#failure(RETRY_COST);
    if (!(error instanceof HTTPError) || !RETRY_STATUSES.includes(error.response.status)) return false;
    const status = error.response.status;
    // The answer's Retry-After, as its attempt read it for the gate.
    const { seconds: wait, waitMs } = this.#retryAfter!;
    if (waitMs === Infinity) {
      this.#context.log("warn", "retry-after-too-long", () => ({ call: this.what, retryAfterSeconds: wait }));
      return false;
    }
    const retry = status === 429 ? this.#throttles <= THROTTLE_RETRIES && this.#pay(RETRY_COST) : this.#failure(RETRY_COST);
    if (!retry) return false;
    // ky waits a Retry-After only on its `afterStatusCodes` (413, 429, 503), as the gate pauses.
    if (wait === undefined || (status !== 429 && status !== 503)) return true;
    this.#logRetry(wait * 1000);
    return undefined;
  }

  #logRetry(waitMs: number): number {
    const why = this.#why;
    this.spec.trace?.retry(why, waitMs);
    this.#context.log("info", "retry", () => ({ call: this.what, after: why, waitMs: Math.round(waitMs) }));
    return waitMs;
  }

  #failure(cost: number): boolean {
    return this.#failures <= this.#retry.limit && this.#pay(cost);
  }

  #pay(cost: number): boolean {
    if (this.#context.gate.spendRetry(cost)) return true;
    this.budgetSpent = true;
    const why = this.#why;
    this.#context.log("warn", "retry-budget-spent", () => ({ call: this.what, after: why }));
    return false;
  }
}
