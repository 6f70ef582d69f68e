/**
 * The one path of every call, on ky: a turn (fixed concurrency, paced by what the server said),
 * the signer for a write, the attempt (the exact body, the body read within the attempt), the
 * retry decision, the verdict "may it have been applied", and the SDK's error. ky runs the retry
 * loop, the backoff with its jitter, and each attempt's timeout.
 */
import ky, { HTTPError, TimeoutError, type KyInstance, type Options as KyOptions } from "ky";
import { readError, rateLimitOf, requestIdOf, type RateLimitFields } from "./answer";
import { HubAbortError, HubConnectionError, HubError, HubRedirectError, HubTimeoutError } from "./errors";
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
  /** A server client's write: signs each attempt after its turn, just before it is sent. */
  sign?: ((request: Request) => Promise<void>) | undefined;
  /** An earlier send of the same write (the re-send for the clock) may have been applied: the verdict starts there. */
  appliedEarlier?: boolean | undefined;
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
  /** Every answer's headers, reads included (the server client's clock). */
  onAnswer?: ((headers: Headers) => void) | undefined;
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
const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`);

/** An observer's call: what it throws is logged, never the call's outcome (the one place that decides it). */
export function safely<T>(log: Log, run: () => T): T | undefined {
  try {
    return run();
  } catch (error) {
    log("warn", "observer-failed", () => ({ error: (error as Error | null)?.message ?? String(error) }));
    return undefined;
  }
}

// The attempt's own signal, checked just before: its listener goes with it.
const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)));
  });

export class Requester {
  readonly #config: RequesterConfig;
  readonly #ky: KyInstance;
  readonly #prefix: string;
  #active = 0;
  readonly #waiting: Array<() => void> = [];
  /** No attempt starts before this (epoch ms): a `Retry-After`, or a window with nothing left. */
  #pausedUntil = 0;
  /** When the latest attempt started (or will): the next is spaced from it by the announced quota. */
  #lastStart = 0;
  /** Attempts started, for reading `remaining` against attempts the server had not yet counted. */
  #started = 0;
  /** What the server said it has left: `left` more attempts until `until` (epoch ms). */
  #allowance: { left: number; until: number } | undefined;
  /** The runtime hides redirects (a browser): reads follow them, the browser enforcing CORS on every hop. */
  #followsRedirects = false;

  constructor(config: RequesterConfig) {
    this.#config = config;
    this.#prefix = `${config.baseUrl.href}/`;
    // The user's headers first, then ours, whatever their case: `x-api-key` is ours alone.
    const headers = new Headers(config.headers);
    headers.set("accept", "application/json");
    headers.set("x-api-key", config.clientId);
    this.#ky = ky.create({ prefixUrl: this.#prefix, headers });
  }

  /** One call: its attempts, its same-origin redirects (reads only), its answer or its error. */
  async send(spec: CallSpec): Promise<Answer> {
    // A signal of the call's own: one caller's signal may serve a whole campaign, and listeners on it would pile up.
    if (spec.signal) spec = { ...spec, signal: AbortSignal.any([spec.signal]) };
    let url = spec.path === "" ? this.#config.baseUrl.href : spec.path;
    for (let hop = 0; ; hop++) {
      try {
        return await this.#call(spec, url);
      } catch (error) {
        if (!(error instanceof HubRedirectError) || spec.method !== "GET" || hop >= MAX_REDIRECTS) throw error;
        if (error.status === 0) {
          // Hidden by the runtime (a browser): from now on the runtime follows a read's redirects itself.
          this.#followsRedirects = true;
          continue;
        }
        const next = URL.canParse(error.location ?? "") ? new URL(error.location!) : undefined;
        // Same origin only, and no credentials in it: `x-api-key` goes nowhere else.
        if (next?.origin !== new URL(url, this.#prefix).origin || next.username || next.password) throw error;
        url = next.href;
        spec = { ...spec, query: undefined };
      }
    }
  }

  /** Waits for a turn: a slot of `maxConcurrency`, then the start the server's pacing allows. Returns its release, and the count of attempts started with it. */
  async #turn(signal: AbortSignal, trace: CallTrace | undefined): Promise<[release: () => void, started: number]> {
    signal.throwIfAborted();
    if (this.#active >= this.#config.maxConcurrency) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const index = this.#waiting.indexOf(go);
          // Given the slot already (by an attempt that ended on the same abort): it is released below.
          if (index === -1) return;
          this.#waiting.splice(index, 1);
          reject(signal.reason);
        };
        const go = () => (signal.removeEventListener("abort", onAbort), resolve());
        this.#waiting.push(go);
        signal.addEventListener("abort", onAbort);
      });
    } else this.#active++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      // The slot passes to the next in line, or is freed.
      if (next) next();
      else this.#active--;
    };
    try {
      signal.throwIfAborted();
      const now = Date.now();
      let start = Math.max(now, this.#pausedUntil, this.#lastStart + this.#quotaInterval);
      const allowance = this.#allowance;
      if (allowance && start < allowance.until && allowance.left-- <= 0) start = Math.max(start, allowance.until);
      this.#lastStart = start;
      if (start > now) {
        trace && safely(this.#config.log, () => trace.pause(start - now));
        this.#config.log("info", "pause", () => ({ waitMs: start - now }));
        await sleep(start - now, signal);
      }
      // Counted here, not by the caller after its await: other calls' turns may end in between.
      return [release, ++this.#started];
    } catch (error) {
      release();
      throw error;
    }
  }

  /** Milliseconds between starts under the server's announced policy (`q` per `w`), 0 when none was announced. */
  #quotaInterval = 0;
  /** The longest reset an answer announced, in seconds: the window, when the policy does not say it. */
  #longestReset = 0;

  /** What an answer says of the server's limit, for the attempts to come. */
  #learn(fields: RateLimitFields, headers: Headers, status: number, startedAs: number, maxRetryAfter: number): void {
    const now = Date.now();
    // The window: announced (`w`), else the longest reset seen (a fresh window's reset is its length).
    if (fields.resetSeconds !== undefined && fields.resetSeconds <= 3600) this.#longestReset = Math.max(this.#longestReset, fields.resetSeconds);
    const window = fields.windowSeconds ?? (this.#longestReset || undefined);
    // A twentieth of slack: the hub counts arrivals, and signing and the network jitter them.
    if (fields.quota !== undefined && window !== undefined && fields.quota > 0) this.#quotaInterval = (window * 1050) / fields.quota;
    if (fields.remaining !== undefined && fields.resetSeconds !== undefined) {
      // Attempts started after this one were not counted by the server when it answered; answers
      // come back out of order, so within one window the lowest estimate holds. A reset in whole
      // seconds is rounded up, each answer from its own instant: the earliest is the nearest.
      const until = now + fields.resetSeconds * 1000;
      const left = fields.remaining - (this.#started - startedAs);
      const last = this.#allowance;
      this.#allowance = last && Math.abs(last.until - until) < 1000 ? { left: Math.min(left, last.left), until: Math.min(until, last.until) } : { left, until };
    }
    const waitMs = (fields.waitSeconds ?? 0) * 1000;
    // A success with nothing left is the allowance's to wait out; a refusal's wait pauses every attempt.
    if ((status === 429 || status === 503) && waitMs > 0 && waitMs <= maxRetryAfter) {
      // A wait read from the reset, not a Retry-After: the window's earliest reset is nearer. A little
      // random extra, so the client's waiting attempts do not return in step.
      const until = headers.has("retry-after") || !this.#allowance ? now + waitMs : Math.min(now + waitMs, this.#allowance.until);
      this.#pausedUntil = Math.max(this.#pausedUntil, until + Math.random() * 100);
    } else if (status === 429 && fields.waitSeconds === undefined && fields.resetSeconds === undefined) {
      // A throttle that says nothing: slow every attempt down for one backoff step.
      this.#pausedUntil = Math.max(this.#pausedUntil, now + this.#config.retry.backoff * (1 + Math.random()));
    }
  }

  /** One URL's attempts on ky, with everything that is the call's own in this scope. */
  async #call(spec: CallSpec, url: string): Promise<Answer> {
    const { log } = this.#config;
    const retry = spec.retry === undefined ? this.#config.retry : resolveRetry(spec.retry);
    const timeout = spec.timeout ?? this.#config.timeout;
    // Log text only: built when a line is written.
    const what = () => `${spec.method} ${where(new URL(url, this.#prefix))}`;
    const startedAt = Date.now();
    let attempts = 0;
    let throttles = 0;
    /** Attempts before the last that the timeout cut. */
    let timedOut = 0;
    /** An attempt may have been applied: a 2xx, 5xx or 408, or a failure after it may have left. */
    let reached = spec.appliedEarlier ?? false;
    let reachedEarlier = false;
    /** An attempt is between `fetch` and its answer: a timeout or abort then may cut it after it was applied. */
    let inFlight = false;
    let lastSignal: AbortSignal | undefined;
    let lastAnswered = false;
    /** How the latest attempt ended: its status, "timeout", or the network error's message. */
    let why = "timeout";
    let retryAfterMs: number | undefined;
    let fetchFailure: unknown;
    let text = "";
    let release: (() => void) | undefined;
    /** The client's count of attempts started when this attempt got its turn (before signing, which awaits). */
    let startedAs = 0;
    const verdict = () => spec.method !== "GET" && (reached || inFlight);

    const attempt = async (request: Request): Promise<Response> => {
      const number = ++attempts;
      // The last attempt was cut by the timeout: it may have reached the server, even when its deaf fetch never settled to say so.
      if (lastSignal?.aborted) {
        timedOut++;
        reached ||= !lastAnswered;
      }
      lastSignal = request.signal;
      lastAnswered = false;
      why = "timeout";
      reachedEarlier = reached;
      // A deaf fetch may never settle, nor its body end: an abort (ky's timeout) ends the attempt's
      // turn and its body read at once. One listener for both: each costs a read about 3 %.
      const free = release!;
      let cut: ((reason: unknown) => void) | undefined;
      const onAbort = () => (free(), cut?.(request.signal.reason));
      request.signal.addEventListener("abort", onAbort);
      const sentAt = Date.now();
      let response: Response | undefined;
      let failure: unknown;
      const heard = spec.trace && safely(log, () => spec.trace!.attempt(request, number));
      const onRequest = this.#config.onRequest;
      onRequest && safely(log, () => onRequest({ type: "request", method: request.method, url: request.url, attempt: number }));
      try {
        inFlight = true;
        try {
          // The exact body string, not the Request's stream (patched fetches send a stream chunked, without a length).
          response = await (this.#config.fetch ?? globalThis.fetch).call(globalThis, request.url, {
            method: request.method,
            headers: request.headers,
            body: spec.body ?? null,
            signal: request.signal,
            redirect: this.#followsRedirects && spec.method === "GET" ? "follow" : "manual",
          });
        } catch (error) {
          // Cut by an abort or a timeout, an attempt may have been sent; a refused connection was not.
          reached ||= request.signal.aborted || !this.#config.neverSent(systemErrorCode(error));
          why = request.signal.aborted ? "timeout" : String((error as Error | null)?.message);
          throw (failure = fetchFailure = error);
        } finally {
          inFlight = false;
          heard && safely(log, () => heard(response?.status, failure));
          log("debug", "attempt", () => ({ method: request.method, url: where(request.url), attempt: number, ms: Date.now() - sentAt, status: response?.status, requestId: response && requestIdOf(response.headers), error: (failure as Error | undefined)?.message }));
        }
        lastAnswered = true;
        // The status decides the verdict when the headers arrive: a 2xx was applied, whatever becomes of its body.
        reached ||= response.ok || response.status >= 500 || response.status === 408;
        why = String(response.status);
        if (response.status === 429) throttles++;
        const fields = rateLimitOf(response.headers);
        const wait = fields.waitSeconds;
        // Only a 429's or a 503's wait is the server pacing the client (as ky reads it too).
        retryAfterMs = wait === undefined || (response.status !== 429 && response.status !== 503) ? undefined : wait * 1000;
        this.#learn(fields, response.headers, response.status, startedAs, retry.maxRetryAfter);
        const onAnswer = this.#config.onAnswer;
        onAnswer && safely(log, () => onAnswer(response!.headers));
        onRequest && safely(log, () => onRequest({ type: "response", method: request.method, url: request.url, attempt: number, status: response!.status, requestId: requestIdOf(response!.headers) }));
        // The body is read within the attempt: ky's timeout bounds it, and a 2xx body cut mid-stream is a failed attempt.
        try {
          text = await new Promise<string>((resolve, reject) => {
            cut = reject;
            if (request.signal.aborted) reject(request.signal.reason);
            else response!.text().then(resolve, reject);
          });
        } catch (error) {
          text = "";
          // An error answer whose body alone was cut keeps its status.
          if (!response.ok && !request.signal.aborted) return response;
          why = request.signal.aborted ? "timeout" : String((error as Error | null)?.message);
          throw (fetchFailure = error);
        }
        return response;
      } finally {
        request.signal.removeEventListener("abort", onAbort);
        free();
      }
    };

    const shouldRetry = (error: Error): boolean => {
      if (spec.signal?.aborted || error instanceof HubError) return false;
      const failures = attempts - throttles;
      if (error instanceof TimeoutError || error === fetchFailure) return failures <= retry.limit;
      if (!(error instanceof HTTPError) || !RETRY_STATUSES.includes(error.response.status)) return false;
      if (retryAfterMs !== undefined && retryAfterMs > retry.maxRetryAfter) {
        log("warn", "retry-after-too-long", () => ({ call: what(), retryAfterSeconds: retryAfterMs! / 1000 }));
        return false;
      }
      return error.response.status === 429 ? throttles <= THROTTLE_RETRIES : failures <= retry.limit;
    };

    const options: KyOptions = {
      method: spec.method,
      ...(url.includes("://") && { prefixUrl: "" }),
      ...(spec.query && { searchParams: spec.query }),
      // Only when there is one: ky reads a headers option into a `Headers` of its own for each call.
      ...((!spec.authenticated || spec.body !== undefined) && {
        headers: { ...(!spec.authenticated && { "x-api-key": undefined }), ...(spec.body !== undefined && { "content-type": "application/json" }) },
      }),
      ...(spec.signal && { signal: spec.signal }),
      timeout,
      retry: {
        limit: retry.limit === 0 ? 0 : retry.limit + THROTTLE_RETRIES,
        // Which statuses, and the cap on a wait, are `shouldRetry`'s and `jitter`'s: ky asks them first.
        methods: [spec.method],
        // After a throttle the turn waits what the server said; after a failure, exponential in the failures so far.
        delay: () => (why === "429" ? 0 : retry.backoff * 2 ** (attempts - throttles - 1)),
        jitter: (delay) => {
          const waitMs = Math.min(delay * (0.5 + Math.random() / 2), retry.maxBackoff);
          // The whole wait: the backoff, and the pause the server asked for (taken at the next turn).
          const total = Math.max(waitMs, retryAfterMs ?? 0);
          spec.trace && safely(log, () => spec.trace!.retry(why, total));
          log("info", "retry", () => ({ call: what(), after: why, waitMs: Math.round(total) }));
          return waitMs;
        },
        shouldRetry: ({ error }) => shouldRetry(error),
      },
      hooks: {
        beforeRequest: [
          async (request) => {
            // ky starts the attempt's timeout after this hook: a wait for a turn is not the server's time.
            // A retry's wait for the server's pause is told as the retry's; a first attempt's as a pause.
            [release, startedAs] = await this.#turn(request.signal, attempts === 0 ? spec.trace : undefined);
            try {
              await spec.sign?.(request);
            } catch (error) {
              release();
              throw error;
            }
          },
        ],
      },
      fetch: (request) => attempt(request as Request),
    };

    try {
      const response = await this.#ky(url, options);
      return { response, text, requestId: requestIdOf(response.headers), attempts, mayHaveBeenAppliedEarlier: reachedEarlier };
    } catch (error) {
      const mayHaveBeenApplied = verdict();
      const aborted = spec.signal?.aborted;
      const origin = new URL(url, this.#prefix).origin;
      // How many attempts and how long, unless one attempt got an HTTP answer: a failure after 30 s of retries is not one 10 s timeout.
      const cut = timedOut + (lastSignal?.aborted ? 1 : 0);
      const summary = `${attempts} attempt${attempts === 1 ? "" : "s"}${cut === 0 ? "" : `, ${cut === attempts ? (cut === 1 ? "" : "each ") : `${cut} `}cut at ${seconds(Number(timeout))}`}, ${seconds(Date.now() - startedAt)} in all`;
      const note = aborted || (attempts <= 1 && error instanceof HTTPError) ? "" : ` ${summary}.`;
      let converted: Error & { attempts?: number | undefined };
      if (aborted) converted = new HubAbortError({ cause: spec.signal!.reason, mayHaveBeenApplied });
      else if (error instanceof HTTPError) {
        const { response } = error;
        converted =
          response.status < 400
            ? redirectError(response, error.request.url, mayHaveBeenApplied, note)
            : readError(response, text, note, mayHaveBeenApplied);
      } else if (error instanceof TimeoutError) converted = new HubTimeoutError({ timeout: Number(timeout), origin, mayHaveBeenApplied });
      else if (error === fetchFailure) {
        const code = systemErrorCode(error);
        converted = new HubConnectionError({ message: `Connection to ${origin} failed: ${code ?? innermostMessage(error) ?? "no HTTP response"}.`, cause: error, code, origin, mayHaveBeenApplied });
      } else throw error; // a signer's or a hook's own error passes unchanged
      if (error instanceof TimeoutError || (error === fetchFailure && !aborted)) converted.message += note;
      converted.attempts = attempts;
      throw converted;
    }
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
