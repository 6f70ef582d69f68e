/**
 * The one path of every call, in one loop the SDK owns: wait for a turn (concurrency, and the pace
 * the hub asked for, never beyond what the call may wait) → sign in server time (writes) → send
 * (ky does the one request: URL, search params, headers, the attempt's timeout) → decide (done,
 * retry after a wait, re-send for the clock, follow a redirect, or fail with the verdict) → sleep.
 * The call's state is one object (`Call`); the client's pacing and server clock are the
 * `Requester`'s.
 */
import ky, { TimeoutError, type KyInstance } from "ky";
import { errorSummary, rateLimitOf, readError, requestIdOf, type Clock, type RateLimitFields } from "./answer";
import { HubAbortError, HubConnectionError, HubRedirectError, HubTimeoutError, RateLimitError } from "./errors";
import { learn, memoryBudget, turn, type HubBudget } from "./pace";
import type { Logger, LogLevel, RequestEvent, RetryOptions } from "./types/options";

/** Every default of the client's options, named once (their `@default` tags document them). */
export const DEFAULTS = {
  /** Per attempt, in milliseconds. */
  timeout: 10_000,
  retry: { limit: 2, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 } satisfies Required<RetryOptions>,
  maxConcurrency: 32,
  logLevel: "warn" satisfies LogLevel,
} as const;

/** Statuses worth another attempt: timeouts, rate limits, and transient server or proxy failures. */
export const RETRY_STATUSES = [408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524];

/**
 * Retries a call may spend on 429s beyond `limit`: a throttle is the server pacing the client,
 * not a failure, and the client waits what the server said before each.
 */
export const THROTTLE_RETRIES = 8;

/** Retry options with their defaults filled in, field by field (an `undefined` keeps the default). */
export function resolveRetry(retry: number | RetryOptions | undefined): Required<RetryOptions> {
  const given: RetryOptions = typeof retry === "number" ? { limit: retry } : (retry ?? {});
  const d = DEFAULTS.retry;
  return { limit: given.limit ?? d.limit, backoff: given.backoff ?? d.backoff, maxBackoff: given.maxBackoff ?? d.maxBackoff, maxRetryAfter: given.maxRetryAfter ?? d.maxRetryAfter };
}

/** Writes one event at a level; `fields` is called only when the level is on. */
export type Log = (level: Exclude<LogLevel, "off">, event: string, fields: () => Record<string, unknown>) => void;
/** The log levels, quietest first (the option checks read them too). */
export const LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

/** `PUBLIC_HUB_LOG` from the environment, where there is one and reading it is allowed. */
function levelFromEnvironment(): LogLevel | undefined {
  try {
    const value = (globalThis as { process: { env: Record<string, string | undefined> } }).process.env.PUBLIC_HUB_LOG;
    return LEVELS.find((level) => level === value);
  } catch {
    // No process or no env (a browser), Deno without --allow-env: no level from the environment.
  }
}

/**
 * The client's log, in logfmt (`[public-hub] attempt method=GET url=https://… status=200`):
 * `logLevel`, else `PUBLIC_HUB_LOG`, else "warn". Fields never hold a key, a signature, a body or a
 * query string. A logger that throws is not the call's business: its error is dropped.
 */
export function createLog(logLevel: LogLevel | undefined, logger: Logger = console): Log {
  const max = LEVELS.indexOf(logLevel ?? levelFromEnvironment() ?? DEFAULTS.logLevel);
  return (level, event, fields) => {
    if (LEVELS.indexOf(level) > max) return;
    try {
      let line = `[public-hub] ${event}`;
      for (const [key, value] of Object.entries(fields())) {
        if (value !== undefined) line += ` ${key}=${/[\s"=]/.test(String(value)) ? JSON.stringify(value) : value}`;
      }
      logger[level](line);
    } catch {
      // An observer never changes an outcome; there is no one left to tell.
    }
  };
}

/** A URL as log lines show it: origin and path, never the query. */
export const where = (url: string | URL) => {
  const { origin, pathname } = new URL(url);
  return origin + pathname;
};

/** What a call tells its telemetry (see `HubCallObserver`); every method is called safely. */
export interface CallTrace {
  attempt(request: Request, attempt: number): ((status: number | undefined, error: unknown) => void) | undefined;
  retry(reason: string, waitMs: number): void;
  pause(waitMs: number): void;
  /** A campaign's progress (`awardMany`). */
  progress?(progress: object): void;
}

/** One call, as the client methods build it. */
export interface CallSpec {
  method: "GET" | "POST";
  /** The encoded path after the base address; `""` for the base address itself (discovery). */
  path: string;
  query?: Record<string, string | number> | undefined;
  /** Whether to send `x-api-key` (discovery does not). */
  authenticated: boolean;
  /** The exact body string: the one sent, and the one a signature covers. */
  body?: string | undefined;
  signal?: AbortSignal | undefined;
  timeout?: number | false | undefined;
  retry?: number | RetryOptions | undefined;
  /** A server client's write: the headers that sign one attempt (to this URL path), made after its turn, just before it is sent. */
  sign?: ((path: string) => Promise<Record<string, string>>) | undefined;
  /** Whether this refusal was of a timestamp outside the server's window (by the clock the refusal moved): sent once more. */
  refusedForClock?: ((status: number) => boolean) | undefined;
  trace?: CallTrace | undefined;
}

/** A 2xx answer, its body read within its attempt. */
export interface Answer {
  response: Response;
  text: string;
  requestId: string | undefined;
  attempts: number;
  /** A write's attempt before the last may have been applied. */
  mayHaveBeenAppliedEarlier: boolean;
}

/** Client-wide settings, fixed at construction. */
export interface RequesterConfig {
  baseUrl: URL;
  clientId: string;
  headers?: Record<string, string> | undefined;
  timeout: number | false;
  retry: Required<RetryOptions>;
  maxConcurrency: number;
  fetch?: typeof globalThis.fetch | undefined;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Whether a failure with this system code never left this machine (the server client's list); else any failure of a write may have been sent. */
  neverSent: (code: string | undefined) => boolean;
  log: Log;
}

/** Same-origin redirects a read follows before giving up. */
const MAX_REDIRECTS = 5;

/** The first system error code in an error's cause chain (undici nests it two deep); fetch refusing a port names none: `ERR_BAD_PORT`. */
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

/** The innermost message of the cause chain, with any query string cut (it may hold data). */
export function innermostMessage(error: unknown): string | undefined {
  let message: string | undefined;
  for (let current = error, depth = 0; depth < 6 && current instanceof Error; current = current.cause, depth++) if (current.message) message = current.message;
  return message?.replace(/\?[^\s)"']*/g, "?…");
}

/** A duration for people: "850 ms", "10 s", "30.7 s". */
export const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`);

/** An observer's call: what it throws is logged, never the call's outcome (the one place that decides it). */
export function safely<T>(log: Log, run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    log("warn", "observer-failed", () => ({ error: (error as Error | null)?.message ?? String(error) }));
    return undefined;
  }
}

/** A wait that an abort ends at once, one that came before it too; without a signal, nothing can end it early. */
const sleep = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    // An abort fires once: no `once` needed (the call's own signal ends with the call).
    signal?.addEventListener("abort", onAbort);
    if (signal?.aborted) onAbort();
  });

/** Each caller's signal gets one listener, whatever the number of calls under it (a campaign's): each call's own controller is in its set. */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

/** A signal of the call's own that follows the caller's, and the call's end (which forgets it). */
function follow(signal: AbortSignal): [AbortSignal, () => void] {
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  let calls = followers.get(signal);
  if (!calls) {
    const created = new Set<AbortController>();
    followers.set(signal, (calls = created));
    signal.addEventListener("abort", () => created.forEach((call) => call.abort(signal.reason)), { once: true });
  }
  calls.add(controller);
  return [controller.signal, () => calls.delete(controller)];
}

/** The backoff before the `n`th retry: exponential, with a jitter of 50–100 %, at most `maxBackoff`. */
const backoff = (retry: Required<RetryOptions>, n: number) => Math.min(retry.backoff * 2 ** (n - 1) * (0.5 + Math.random() / 2), retry.maxBackoff);

/** One call as the loop keeps it: its options resolved once, what it sent, what came back. */
interface Call {
  readonly spec: CallSpec;
  /** The URL asked: the path after the prefix, or a followed redirect's absolute URL. */
  url: string;
  query: CallSpec["query"];
  readonly retry: Required<RetryOptions>;
  readonly timeout: number | false;
  /** The call's own signal, following the caller's: listeners end with the call, not with a campaign's signal. */
  readonly signal: AbortSignal | undefined;
  /** The longest the call waits for anything the hub asked (a pause, a window with nothing left, a `Retry-After`). */
  readonly maxWaitMs: number;
  readonly startedAt: number;
  /** Attempts sent (redirects followed included), failures and throttles retried, attempts cut by the timeout. */
  attempts: number;
  failures: number;
  throttles: number;
  cut: number;
  hops: number;
  /** A redirect the runtime hid (a browser's): this call's next attempt lets the runtime follow it, the browser enforcing CORS on every hop. */
  follows?: boolean;
  resent: boolean;
  /** A write: an attempt so far may have been applied (a 2xx, 5xx or 408, or a failure after it may have left). */
  mayHaveBeenApplied: boolean;
  appliedBeforeLast: boolean;
}

/** How one attempt ended: an answer with its body read, or no answer. */
type Outcome =
  | { response: Response; text: string; receivedAt: number; waitUntil: number | undefined }
  | { error: unknown; kind: "timeout" | "network" | "abort" };

/** No retry sooner than this after a wait the hub asked for (a `Retry-After` of 0.001 s is no licence to burst): the first backoff step at its shortest (within `maxBackoff`), at most a second. */
const retryFloor = (retry: Required<RetryOptions>) => Math.min(retry.backoff / 2, retry.maxBackoff, 1_000);

export class Requester {
  readonly #config: RequesterConfig;
  readonly #ky: KyInstance;
  readonly #prefix: string;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  /** The hub key's pace: this client's own, or one shared by every process awarding with the key (the server client's `budget`). */
  budget: HubBudget = memoryBudget();
  /** How an error body is read: its code and message (a browser's reads); the server client's reads its field issues too (`errorFields`). */
  readFields = errorSummary;
  /**
   * Where the server's times fall on this machine's clock, learnt from every answer: the server
   * client's `ServerClock`. Without one (a browser seldom sees `Date`), the local clock.
   */
  clock: Clock & { observe?(headers: Headers, sentAt: number, receivedAt: number): void } = { localTime: (serverMs) => serverMs };

  constructor(config: RequesterConfig) {
    this.#config = config;
    this.#prefix = `${config.baseUrl.href}/`;
    // The user's headers first, then ours, whatever their case: `x-api-key` is ours alone.
    const headers = new Headers(config.headers);
    headers.set("accept", "application/json");
    headers.set("x-api-key", config.clientId);
    this.#ky = ky.create({ prefixUrl: this.#prefix, headers, retry: 0, throwHttpErrors: false });
  }

  /** One call, top-down: a turn, the attempt (signed, sent, read), the decision, the wait; its answer or its error. */
  async send(spec: CallSpec): Promise<Answer> {
    // The call's own signal: the caller's may serve a whole campaign, and listeners on it would pile up.
    const [signal, forget] = spec.signal ? follow(spec.signal) : [];
    const call = this.#open(spec, signal);
    try {
      for (;;) {
        const outcome = await this.#attempt(call);
        const next = this.#decide(call, outcome);
        if (!next) return this.#finish(call, outcome);
        spec.trace && safely(this.#config.log, () => spec.trace!.retry(next.reason, next.waitMs));
        this.#config.log("info", "retry", () => ({ call: this.#what(call), after: next.reason, waitMs: Math.round(next.waitMs) }));
        if (next.waitMs > 0) await sleep(next.waitMs, call.signal);
      }
    } catch (error) {
      // Aborted while waiting for a turn or a retry: the verdict so far. Else the pacing's or a signer's own error.
      const failure = call.signal?.aborted ? new HubAbortError({ cause: call.signal.reason, mayHaveBeenApplied: this.#verdict(call) }) : error;
      if (failure instanceof HubAbortError || failure instanceof RateLimitError) Object.assign(failure, { attempts: call.attempts });
      throw failure;
    } finally {
      forget?.();
    }
  }

  #open(spec: CallSpec, signal: AbortSignal | undefined): Call {
    const retry = spec.retry === undefined ? this.#config.retry : resolveRetry(spec.retry);
    const timeout = spec.timeout ?? this.#config.timeout;
    return {
      spec,
      url: spec.path === "" ? this.#config.baseUrl.href : spec.path,
      query: spec.query,
      retry,
      timeout,
      signal,
      // A call that may not retry waits no longer than one attempt may take either.
      maxWaitMs: retry.limit === 0 ? Math.min(retry.maxRetryAfter, timeout === false ? Infinity : timeout) : retry.maxRetryAfter,
      startedAt: Date.now(),
      attempts: 0,
      failures: 0,
      throttles: 0,
      cut: 0,
      hops: 0,
      resent: false,
      mayHaveBeenApplied: false,
      appliedBeforeLast: false,
    };
  }

  /** "May it have been applied?": a write any of whose attempts may have been. */
  #verdict(call: Call): boolean {
    return call.spec.method !== "GET" && call.mayHaveBeenApplied;
  }

  /** Log text only: built when a line is written. */
  #what(call: Call): string {
    return `${call.spec.method} ${where(new URL(call.url, this.#prefix))}`;
  }

  /**
   * Waits for a turn: a slot of `maxConcurrency`, then the start the hub's pace allows (a pause it
   * asked for, a window with nothing left, the adapted rate). A start further away than the call
   * may wait fails now, with the wait on the `RateLimitError`. Returns the slot's release and the
   * count of attempts started with this one.
   */
  async #turn(call: Call): Promise<[release: () => void, started: number]> {
    const { signal } = call;
    signal?.throwIfAborted();
    if (this.#active >= this.#config.maxConcurrency) {
      await new Promise<void>((resolve, reject) => {
        // `go` removes this listener before it resolves, so an abort here always finds `go` in line.
        const onAbort = () => {
          this.#waiting.splice(this.#waiting.indexOf(go), 1);
          reject(signal!.reason);
        };
        const go = () => (signal?.removeEventListener("abort", onAbort), resolve());
        this.#waiting.push(go);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    } else this.#active++;
    // Called once: by the catch below when no turn is given, else by the attempt's `finally`.
    const release = () => {
      const next = this.#waiting.shift();
      // The slot passes to the next in line, or is freed.
      if (next) next();
      else this.#active--;
    };
    try {
      signal?.throwIfAborted();
      const { maxWaitMs } = call;
      const now = Date.now();
      const [start, started] = await this.budget.update((pace) => turn(pace, now, maxWaitMs));
      const waitMs = start - now;
      if (waitMs > maxWaitMs) {
        throw new RateLimitError({
          status: 429,
          headers: {},
          retryAfterMs: waitMs,
          message: `Not sent: the hub allows the next request in ${seconds(waitMs)}, more than this call may wait (${seconds(maxWaitMs)}).`,
          mayHaveBeenApplied: this.#verdict(call),
        });
      }
      if (waitMs > 0) {
        const { trace } = call.spec;
        // A retry's wait is told as the retry's; a first attempt's as a pause.
        if (trace && call.attempts === 0) safely(this.#config.log, () => trace.pause(waitMs));
        await sleep(waitMs, signal);
      }
      return [release, started];
    } catch (error) {
      release();
      throw error;
    }
  }

  /**
   * What an answer says of the hub's limit, for the attempts to come (every time in local epoch ms,
   * from the server's time). Returns when the hub lets the next request in, if it said.
   */
  async #learn(fields: RateLimitFields, status: number, startedAs: number, now: number): Promise<number | undefined> {
    const [waitUntil, pausedUntil] = await this.budget.update((pace) => learn(pace, fields, status, startedAs, now));
    if (pausedUntil) this.#config.log("debug", "pause", () => ({ waitMs: Math.round(pausedUntil - now), status }));
    return waitUntil;
  }

  /** One attempt: a turn, the signature, ky's one request (the body read within it), what it says of the hub. */
  async #attempt(call: Call): Promise<Outcome> {
    const { spec } = call;
    const [release, startedAs] = await this.#turn(call);
    const number = ++call.attempts;
    call.appliedBeforeLast = call.mayHaveBeenApplied;
    let text = "";
    let waitUntil: number | undefined;
    let receivedAt = 0;
    let failure: unknown;
    const { log } = this.#config;
    const { clock } = this;
    try {
      const absolute = call.url.includes("://");
      const signed = spec.sign && (await spec.sign(new URL(absolute ? call.url : this.#prefix + call.url).pathname));
      const response = await this.#ky(call.url, {
        method: spec.method,
        ...(absolute && { prefixUrl: "" }),
        ...(call.query && { searchParams: call.query }),
        // Only when there is one: ky reads a headers option into a `Headers` of its own for each call.
        ...((!spec.authenticated || spec.body !== undefined || signed) && {
          headers: { ...(!spec.authenticated && { "x-api-key": undefined }), ...(spec.body !== undefined && { "content-type": "application/json" }), ...signed },
        }),
        ...(call.signal && { signal: call.signal }),
        timeout: call.timeout,
        fetch: async (input) => {
          const request = input as Request;
          // One listener per attempt: an abort (the caller's, or ky's timeout) settles the attempt at once, whatever fetch does.
          let cut!: (reason: unknown) => void;
          const aborted = new Promise<never>((_, reject) => (cut = reject));
          aborted.catch(() => undefined);
          // The caller's abort is heard on the call's own signal too: the one ky derives from it may be collected first.
          const { signal } = call;
          const onAbort = () => cut(signal?.reason ?? request.signal.reason);
          // Aborted before it left (during a turn, a signature, a budget's exchange): nothing is sent, whatever the fetch does.
          signal?.throwIfAborted();
          request.signal.addEventListener("abort", onAbort);
          signal?.addEventListener("abort", onAbort);
          const sentAt = Date.now();
          let response: Response | undefined;
          const heard = spec.trace && safely(log, () => spec.trace!.attempt(request, number));
          const onRequest = this.#config.onRequest;
          onRequest && safely(log, () => onRequest({ type: "request", method: request.method, url: request.url, attempt: number }));
          try {
            try {
              // The exact body string, not the Request's stream (patched fetches send a stream chunked, without a length).
              const sent = (this.#config.fetch ?? globalThis.fetch).call(globalThis, request.url, {
                method: request.method,
                headers: request.headers,
                body: spec.body ?? null,
                signal: request.signal,
                redirect: call.follows ? "follow" : "manual",
              });
              response = await Promise.race([sent, aborted]);
            } catch (error) {
              // Cut by an abort or a timeout, an attempt may have been sent; a refused connection was not.
              call.mayHaveBeenApplied ||= request.signal.aborted || !this.#config.neverSent(systemErrorCode(error));
              throw (failure = error);
            } finally {
              heard && safely(log, () => heard(response?.status, failure));
              log("debug", "attempt", () => ({ method: request.method, url: where(request.url), attempt: number, ms: Date.now() - sentAt, status: response?.status, requestId: response && requestIdOf(response.headers), error: (failure as Error | undefined)?.message }));
            }
            // The status decides the verdict when the headers arrive: a 2xx was applied, whatever becomes of its body.
            call.mayHaveBeenApplied ||= response.ok || response.status >= 500 || response.status === 408;
            const { headers, status } = response;
            receivedAt = Date.now();
            clock.observe?.(headers, sentAt, receivedAt);
            waitUntil = await this.#learn(rateLimitOf(headers, clock, receivedAt), status, startedAs, receivedAt);
            onRequest && safely(log, () => onRequest({ type: "response", method: request.method, url: request.url, attempt: number, status, requestId: requestIdOf(headers) }));
            // The body is read within the attempt: its timeout bounds it, and a 2xx body cut mid-stream is a failed attempt.
            try {
              text = await Promise.race([response.text(), aborted]);
            } catch (error) {
              text = "";
              // An error answer whose body alone was cut keeps its status.
              if (!response.ok && !request.signal.aborted) return response;
              throw (failure = error);
            }
            return response;
          } finally {
            // The call's own signal ends with the call: its listeners go with it.
            request.signal.removeEventListener("abort", onAbort);
          }
        },
      });
      return { response, text, receivedAt, waitUntil };
    } catch (error) {
      if (call.signal?.aborted) return { error, kind: "abort" };
      if (error instanceof TimeoutError) return { error, kind: "timeout" };
      if (error === failure) return { error, kind: "network" };
      throw error; // a signer's own error passes unchanged
    } finally {
      release();
    }
  }

  /** The one decision after an attempt: a retry (why, and the wait before it), or nothing more to send. */
  #decide(call: Call, outcome: Outcome): { reason: string; waitMs: number } | undefined {
    const { retry, spec } = call;
    if ("error" in outcome) {
      if (outcome.kind === "abort") return undefined;
      if (outcome.kind === "timeout") call.cut++;
      if (++call.failures > retry.limit) return undefined;
      return { reason: outcome.kind === "timeout" ? "timeout" : String((outcome.error as Error | null)?.message), waitMs: backoff(retry, call.failures) };
    }
    const { response, waitUntil, receivedAt } = outcome;
    const { status } = response;
    if (response.ok) return undefined;
    if (status < 400) return this.#redirect(call, response);
    if (!call.resent && spec.refusedForClock?.(status)) {
      // Signed outside the server's window, by the clock the refusal moved: once more, signed anew.
      call.resent = true;
      return { reason: "clock", waitMs: 0 };
    }
    if (!RETRY_STATUSES.includes(status) || retry.limit === 0) return undefined;
    // Only a 429's or a 503's wait is the server pacing the client.
    const asked = (status === 429 || status === 503) && waitUntil !== undefined ? Math.max(0, waitUntil - receivedAt) : 0;
    if (asked > call.maxWaitMs) {
      this.#config.log("warn", "retry-after-too-long", () => ({ call: this.#what(call), retryAfterSeconds: Math.round(asked / 1000) }));
      return undefined;
    }
    const throttled = status === 429;
    const count = throttled ? ++call.throttles : ++call.failures;
    if (count > (throttled ? THROTTLE_RETRIES : retry.limit)) return undefined;
    // The hub's wait when it asked for one, else the backoff: never a burst of retries.
    return { reason: String(status), waitMs: asked > 0 ? Math.max(asked, retryFloor(retry)) : backoff(retry, count) };
  }

  /** A read's redirect to follow (same origin, no credentials, at most `MAX_REDIRECTS`), as a retry with no wait. */
  #redirect(call: Call, response: Response): { reason: string; waitMs: number } | undefined {
    if (call.spec.method !== "GET" || call.hops >= MAX_REDIRECTS) return undefined;
    if (response.status === 0) {
      // Hidden by the runtime (a browser): this call's next attempt lets it follow, once; no later call.
      if (call.follows) return undefined;
      call.follows = true;
    } else {
      const from = new URL(call.url, this.#prefix);
      const location = response.headers.get("location");
      const next = location && URL.canParse(location, from) ? new URL(location, from) : undefined;
      // Same origin only, and no credentials in it: `x-api-key` goes nowhere else.
      if (next?.origin !== from.origin || next.username || next.password) return undefined;
      call.url = next.href;
      call.query = undefined;
    }
    call.hops++;
    return { reason: "redirect", waitMs: 0 };
  }

  /** The call's end: its answer, or the SDK's error for how its last attempt ended. */
  #finish(call: Call, outcome: Outcome): Answer {
    const mayHaveBeenApplied = this.#verdict(call);
    if ("response" in outcome && outcome.response.ok) {
      const { response, text } = outcome;
      return { response, text, requestId: requestIdOf(response.headers), attempts: call.attempts, mayHaveBeenAppliedEarlier: call.appliedBeforeLast };
    }
    const origin = new URL(call.url, this.#prefix).origin;
    const { attempts, cut, timeout } = call;
    // How many attempts and how long, unless one attempt got an HTTP answer: a failure after 30 s of retries is not one 10 s timeout.
    const summary = `${attempts} attempt${attempts === 1 ? "" : "s"}${cut === 0 ? "" : `, ${cut === attempts ? (cut === 1 ? "" : "each ") : `${cut} `}cut at ${seconds(Number(timeout))}`}, ${seconds(Date.now() - call.startedAt)} in all`;
    let error: Error & { attempts?: number | undefined };
    if ("response" in outcome) {
      const { response, text, waitUntil, receivedAt } = outcome;
      const note = attempts <= 1 ? "" : ` ${summary}.`;
      // The wait the hub asked for, whichever header said it.
      const retryAfterMs = waitUntil === undefined ? undefined : Math.max(0, Math.round(waitUntil - receivedAt));
      error = response.status < 400 ? redirectError(response, new URL(call.url, this.#prefix).href, mayHaveBeenApplied, note) : readError(response, text, note, mayHaveBeenApplied, retryAfterMs, this.readFields);
    } else if (outcome.kind === "abort") error = new HubAbortError({ cause: call.signal!.reason, mayHaveBeenApplied });
    else if (outcome.kind === "timeout") error = new HubTimeoutError({ timeout: Number(timeout), origin, mayHaveBeenApplied });
    else {
      const code = systemErrorCode(outcome.error);
      error = new HubConnectionError({ message: `Connection to ${origin} failed: ${code ?? innermostMessage(outcome.error) ?? "no HTTP response"}.`, cause: outcome.error, code, origin, mayHaveBeenApplied });
    }
    if (!("response" in outcome) && outcome.kind !== "abort") error.message += ` ${summary}.`;
    error.attempts = attempts;
    throw error;
  }
}

/** A redirect answer as an error, `location` resolved against the URL asked. */
export function redirectError(response: Response, requestUrl: string, mayHaveBeenApplied: boolean, note: string): HubRedirectError {
  const header = response.headers.get("location") ?? undefined;
  let location = header;
  try {
    location = header && new URL(header, requestUrl).href;
  } catch {
    // Kept as sent: the error names it, and nothing follows it.
  }
  const reason = response.status === 0 ? "the runtime hides it" : "the SDK follows no redirect here";
  const error = new HubRedirectError({ status: response.status, location, reason, mayHaveBeenApplied });
  error.message += note;
  return error;
}
