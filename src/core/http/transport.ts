import ky, { type KyInstance } from "ky";
import { HubRedirectError } from "../errors/hub-redirect-error";
import { where, type Log } from "../log";
import type { RateLimitOptions, RequestEvent, RetryOptions } from "../types/options";
import { attemptFetch, type OutgoingAttempt } from "./attempt";
import { toHubError } from "./ky-adapter";
import { RateGate } from "./rate-gate";
import { kyRetry, resolveRetry, type RetryContext } from "./retry";
import { SharedReads } from "./shared-reads";

/** Client-wide transport settings, fixed at construction. */
export interface TransportConfig {
  clientId: string;
  timeout: number | false;
  retry: number | RetryOptions | undefined;
  rateLimit?: RateLimitOptions | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Whether identical reads in flight share one request. */
  dedupeReads: boolean;
  log: Log;
}

/** One call. `beforeSend` runs last before every attempt's fetch, after the rate gate: writes sign there. */
export interface SendOptions {
  method: "GET" | "POST";
  url: URL;
  authenticated: boolean;
  body?: string | undefined;
  beforeSend?: ((attempt: OutgoingAttempt) => void | Promise<void>) | undefined;
  mayHaveBeenSent?: ((error: unknown) => boolean) | undefined;
  signal?: AbortSignal | undefined;
  timeout?: number | false | undefined;
  retry?: number | RetryOptions | undefined;
}

/** A 2xx answer, read: the body is text so that odd bodies can be reported, not crash a parser. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The final response, its body already read into `text`. */
  response: Response;
}

/** Same-origin redirects a read follows before giving up. */
const MAX_REDIRECTS = 5;

/** Defaults of {@link RateLimitOptions}. */
export const RATE_LIMIT_DEFAULTS: Required<RateLimitOptions> = {
  maxConcurrency: 32,
  maxRequestsPerSecond: Infinity,
  retryBudget: 500,
};

/**
 * The HTTP layer, on ky: headers, timeouts, retries with backoff, the client's rate gate, and
 * error conversion. Redirects are never followed by `fetch` itself: a signed write is never
 * redirected (its signature covers one path), and a read follows only redirects within the API's
 * origin (`x-api-key` stays there).
 */
export class Transport {
  readonly #ky: KyInstance = ky.create({ timeout: false, throwHttpErrors: true });
  readonly #config: TransportConfig;
  readonly #retry: Required<RetryOptions>;
  readonly #shared = new SharedReads<RawResponse>();
  readonly #headerSets: Headers[] = [];
  /** The client's one rate gate: every attempt of every call passes it. */
  readonly gate: RateGate;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#retry = resolveRetry(config.retry);
    this.gate = new RateGate({ ...RATE_LIMIT_DEFAULTS, ...config.rateLimit }, (event, fields) => config.log("info", event, fields));
  }

  send(options: SendOptions): Promise<RawResponse> {
    if (options.method !== "GET" || !this.#config.dedupeReads) return this.#follow(options);
    // Same URL, same headers (authenticated or not), same per-call timeout and retry: same request.
    // Without per-call settings (the usual case) the key needs no JSON; it cannot start with "[".
    const key =
      options.timeout === undefined && options.retry === undefined
        ? `${options.authenticated ? "a" : "u"} ${options.url.href}`
        : JSON.stringify([options.url.href, options.authenticated, options.timeout, options.retry]);
    return this.#shared.share(key, (signal) => this.#follow({ ...options, signal }), options.signal);
  }

  async #follow(options: SendOptions): Promise<RawResponse> {
    let url = options.url;
    for (let hop = 0; ; hop++) {
      try {
        return await this.#exchange({ ...options, url });
      } catch (error) {
        const next = error instanceof HubRedirectError ? this.#followable(options, url, error, hop) : undefined;
        if (next === undefined) throw error;
        url = next;
      }
    }
  }

  /** Where a read may go after a redirect; undefined (rethrow) for writes, other origins, too many hops. */
  #followable(options: SendOptions, from: URL, error: HubRedirectError, hop: number): URL | undefined {
    if (options.method !== "GET" || error.location === undefined || hop >= MAX_REDIRECTS) return undefined;
    const next = new URL(error.location);
    return next.origin === from.origin ? next : undefined;
  }

  async #exchange(options: SendOptions): Promise<RawResponse> {
    const timeout = options.timeout ?? this.#config.timeout;
    const retry = options.retry === undefined ? this.#retry : resolveRetry(options.retry);
    const write = options.method !== "GET";
    // Stryker disable next-line ObjectLiteral: missing fields are as false as false ones
    const delivery = { started: false, sent: false };
    const log = this.#config.log;
    const context: RetryContext = { gate: this.gate, signal: options.signal, budgetExhausted: false, log, what: () => `${options.method} ${where(options.url)}` };
    try {
      // ky gets only what it acts on: headers, body and redirect mode are the per-attempt
      // fetch's (it sends them itself), and every option ky is handed costs a merge per call.
      const response = await this.#ky(options.url, {
        method: options.method,
        retry: kyRetry(retry, write ? "post" : "get", context),
        ...(options.signal && { signal: options.signal }),
        fetch: attemptFetch({
          fetch: this.#config.fetch ?? globalThis.fetch,
          gate: this.gate,
          headers: this.#headers(options),
          body: options.body,
          signal: options.signal,
          timeout,
          maxRetryAfterMs: retry.maxRetryAfter,
          beforeSend: options.beforeSend,
          mayHaveBeenSent: options.mayHaveBeenSent,
          onRequest: this.#config.onRequest,
          log,
          delivery,
        }),
      });
      return { status: response.status, headers: response.headers, text: await response.text(), response };
    } catch (error) {
      const failure = { signal: options.signal, timeout, origin: options.url.origin, write, ...delivery, budgetExhausted: context.budgetExhausted };
      const hubError = await toHubError(error, failure);
      // An unknown outcome is an error to report, unless the caller chose it by aborting.
      const level = options.signal?.aborted ? "info" : "error";
      if ((hubError as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied) log(level, "outcome-unknown", () => ({ call: context.what(), error: (hubError as Error).name }));
      throw hubError;
    }
  }

  /** The headers of a call, built once per kind of call (authenticated or not, with a body or not); never changed after. */
  #headers(options: SendOptions): Headers {
    const kind = (options.authenticated ? 1 : 0) + (options.body === undefined ? 0 : 2);
    return (this.#headerSets[kind] ??= this.#buildHeaders(options));
  }

  #buildHeaders(options: SendOptions): Headers {
    // User headers first, then ours: `x-api-key` is ours alone (and absent from discovery), and
    // the signature headers are set after this, in `beforeSend`.
    const headers = new Headers(this.#config.headers);
    headers.set("accept", "application/json");
    if (options.authenticated) headers.set("x-api-key", this.#config.clientId);
    else headers.delete("x-api-key");
    if (options.body !== undefined) headers.set("content-type", "application/json");
    return headers;
  }
}
