/**
 * A client's HTTP layer, on ky: one ky instance with the client's address and headers, one rate
 * gate, identical reads in flight shared, same-origin redirects of reads followed. Each call is a
 * {@link Call}; its failure becomes the SDK's error in `toHubError`, nowhere else.
 */
import ky, { type KyInstance } from "ky";
import { CLIENT_DEFAULTS } from "../defaults";
import { HubAbortError } from "../errors/hub-abort-error";
import { HubRedirectError } from "../errors/hub-redirect-error";
import type { Log } from "../log";
import type { RateLimitOptions, RequestEvent, RetryOptions } from "../types/options";
import type { TextResponse } from "./body";
import { Call, resolveRetry, type CallContext, type CallSpec } from "./call";
import { toHubError } from "./ky-adapter";
import { RateGate } from "../rate-gate";
import type { WritePolicy } from "./write-policy";

/** Client-wide settings, fixed at construction. */
export interface TransportConfig {
  baseUrl: URL;
  clientId: string;
  timeout: number | false;
  retry: number | RetryOptions | undefined;
  rateLimit?: RateLimitOptions | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Whether identical reads in flight share one request. */
  dedupeReads: boolean;
  /** The server client's write policy (signing, the server's clock); a `HubClient` has none. */
  writes?: WritePolicy | undefined;
  log: Log;
}

/** A 2xx answer, read: the body is text so that an odd body can be reported, not crash a parser. */
export interface RawResponse extends TextResponse {
  /** The final response, its body already read into `text`. */
  response: Response;
  /** Attempts the call sent, this one included. */
  attempts: number;
  /** A write's attempt before the last may have been applied (the call's verdict, taken at its success). */
  mayHaveBeenAppliedEarlier: boolean;
}

/** Same-origin redirects a read follows before giving up. */
const MAX_REDIRECTS = 5;

/** A URL, or undefined when there is none or it does not parse (a `Location` of `http://[broken`). */
function parseUrl(text: string | undefined): URL | undefined {
  try {
    return new URL(text!);
  } catch {
    // Not a URL: undefined.
  }
}

interface SharedRead {
  promise: Promise<RawResponse>;
  /** Absent when the first caller had no signal: that caller never leaves. */
  controller: AbortController | undefined;
  /** Callers still waiting; one without a signal never leaves, so the request then runs to its end. */
  callers: number;
}

export class Transport {
  /** The client's one rate gate: every attempt of every call passes it. */
  readonly gate: RateGate;
  /** What every call shares, fixed at construction. */
  readonly #context: CallContext;
  readonly #ky: KyInstance;
  readonly #dedupeReads: boolean;
  readonly #shared = new Map<string, SharedRead>();

  constructor(config: TransportConfig) {
    const log = config.log;
    this.gate = new RateGate({ ...CLIENT_DEFAULTS.rateLimit, ...config.rateLimit }, (event, fields) => log("info", event, fields));
    this.#context = { gate: this.gate, fetch: config.fetch, timeout: config.timeout, retry: resolveRetry(config.retry), onRequest: config.onRequest, prefixUrl: `${config.baseUrl.href}/`, writes: config.writes, log };
    this.#dedupeReads = config.dedupeReads;
    // The user's headers first, then ours, replacing theirs whatever their case: `x-api-key` is
    // ours alone (a call without it removes it).
    const headers = new Headers(config.headers);
    headers.set("accept", "application/json");
    headers.set("x-api-key", config.clientId);
    this.#ky = ky.create({ prefixUrl: this.#context.prefixUrl, headers });
  }

  send(spec: CallSpec): Promise<RawResponse> {
    // A signal of the call's own, following the caller's: each waiting call listens to its signal
    // (ky's retry wait, a shared read), and one caller's signal may serve many calls at once (a
    // campaign's): listeners on it would pile up past Node's warning at 10.
    if (spec.signal) spec = { ...spec, signal: AbortSignal.any([spec.signal]) };
    if (spec.method !== "GET" || !this.#dedupeReads) return this.#follow(spec);
    // Same URL, same headers (authenticated or not), same per-call timeout and retry: the same request.
    const key = JSON.stringify([spec.input, spec.query, spec.authenticated, spec.timeout, spec.retry]);
    return this.#share(key, (signal) => this.#follow({ ...spec, signal }), spec.signal);
  }

  /**
   * Redirects are never followed by `fetch` itself: a signed write is never redirected (its
   * signature covers one path), and a read follows only redirects within the URL's origin, where
   * `x-api-key` may go.
   */
  async #follow(spec: CallSpec): Promise<RawResponse> {
    for (let hop = 0; ; hop++) {
      try {
        return await this.#exchange(spec);
      } catch (error) {
        const next = error instanceof HubRedirectError && spec.method === "GET" && hop < MAX_REDIRECTS ? parseUrl(error.location) : undefined;
        // A Location with credentials is not followed: `x-api-key` would go with a user and password.
        if (next?.origin !== new URL(spec.input, this.#context.prefixUrl).origin || next.username || next.password) throw error;
        spec = { ...spec, input: next.href, query: undefined };
      }
    }
  }

  async #exchange(spec: CallSpec): Promise<RawResponse> {
    const call = new Call(spec, this.#context);
    try {
      const response = await this.#ky(spec.input, call.kyOptions());
      return { status: response.status, headers: response.headers, text: call.bodyOf(response), response, mayHaveBeenApplied: call.mayHaveBeenApplied(), attempts: call.attempts, mayHaveBeenAppliedEarlier: call.mayHaveBeenAppliedEarlier() };
    } catch (error) {
      const converted = await toHubError(error, call, new URL(spec.input, this.#context.prefixUrl).origin);
      await this.#context.writes?.failed(converted, call);
      throw converted;
    }
  }

  /**
   * Identical reads in flight share one request (a page rendering five widgets that each ask for
   * the hub costs one request). Each caller waits on its own: aborting one rejects only its
   * promise, and the shared request is aborted when no caller is left.
   */
  #share(key: string, start: (signal: AbortSignal | undefined) => Promise<RawResponse>, signal: AbortSignal | undefined): Promise<RawResponse> {
    if (signal?.aborted) return Promise.reject(new HubAbortError({ cause: signal.reason }));
    let shared = this.#shared.get(key);
    if (shared === undefined) {
      // Only a caller with a signal can leave; without one, nothing can ever abort the request, and
      // an AbortController per read is a measured share of a read's cost (bench/RESULTS.md).
      const controller = signal && new AbortController();
      const created: SharedRead = (shared = { controller, callers: 0, promise: start(controller?.signal) });
      const forget = () => this.#shared.get(key) === created && this.#shared.delete(key);
      created.promise.then(forget, forget);
      this.#shared.set(key, created);
    }
    const entry = shared;
    entry.callers++;
    if (!signal) return entry.promise;
    return new Promise<RawResponse>((resolve, reject) => {
      const onAbort = () => {
        leave();
        reject(new HubAbortError({ cause: signal.reason }));
        if (entry.callers > 0) return;
        // A caller without a signal never leaves: with none left, the first caller had one.
        entry.controller!.abort(signal.reason);
        if (this.#shared.get(key) === entry) this.#shared.delete(key);
      };
      const leave = () => {
        signal.removeEventListener("abort", onAbort);
        entry.callers--;
      };
      signal.addEventListener("abort", onAbort);
      entry.promise.then(
        (value) => (leave(), resolve(value)),
        (error: unknown) => (leave(), reject(error)),
      );
    });
  }
}
