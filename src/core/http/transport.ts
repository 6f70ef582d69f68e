import ky, { type Hooks, type KyInstance } from "ky";
import { HubRedirectError } from "../errors/hub-redirect-error";
import type { RequestEvent, RetryOptions } from "../types/options";
import { mayHaveBeenSent, outcomeUnknown } from "./delivery";
import { toHubError } from "./ky-adapter";
import { kyRetry, resolveRetry } from "./retry";
import { callUserHook } from "./user-hook";

/** Client-wide transport settings, fixed at construction. */
export interface TransportConfig {
  clientId: string;
  timeout: number | false;
  retry: number | RetryOptions | undefined;
  fetch?: typeof globalThis.fetch | undefined;
  headers?: Record<string, string> | undefined;
  onRequest?: ((event: RequestEvent) => void) | undefined;
}

/** One call. `beforeSend` runs last before every attempt's fetch: writes sign there. */
export interface SendOptions {
  method: "GET" | "POST";
  url: URL;
  authenticated: boolean;
  body?: string | undefined;
  beforeSend?: ((request: Request) => void | Promise<void>) | undefined;
  signal?: AbortSignal | undefined;
  timeout?: number | false | undefined;
  retry?: number | RetryOptions | undefined;
}

/** A 2xx answer, read: the body is text so that odd bodies can be reported, not crash a parser. */
export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
}

/** Same-origin redirects a read follows before giving up. */
const MAX_REDIRECTS = 5;

/**
 * The HTTP layer, on ky: headers, timeouts, retries with backoff, and error conversion. Redirects
 * are never followed by `fetch` itself: a signed write is never redirected (its signature covers
 * one path), and a read follows only redirects within the API's origin (`x-api-key` stays there).
 */
export class Transport {
  readonly #ky: KyInstance;
  readonly #config: TransportConfig;
  // ky's retry settings for the client's own retry options, built once per method.
  readonly #kyRetry: Record<"get" | "post", ReturnType<typeof kyRetry>>;

  constructor(config: TransportConfig) {
    this.#config = config;
    const retry = resolveRetry(config.retry);
    this.#kyRetry = { get: kyRetry(retry, "get"), post: kyRetry(retry, "post") };
    this.#ky = ky.create({ hooks: logHooks(config.onRequest) });
  }

  async send(options: SendOptions): Promise<RawResponse> {
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
    const method = options.method === "GET" ? "get" : "post";
    const write = options.method !== "GET";
    const fetchFn = this.#config.fetch ?? globalThis.fetch;
    // Whether an attempt started, and whether one may have reached the server: then a failed
    // write may have been applied.
    const delivery = { started: false, sent: false };
    const body = options.body;
    try {
      const response = await this.#ky(options.url, {
        method: options.method,
        headers: this.#headers(options),
        body: body ?? null,
        timeout,
        retry: options.retry === undefined ? this.#kyRetry[method] : kyRetry(resolveRetry(options.retry), method),
        signal: options.signal ?? null,
        redirect: "manual",
        ...(options.beforeSend ? { hooks: { beforeRequest: [options.beforeSend] } } : {}),
        // ky builds a Request; `fetch` gets the URL and the body string instead. A Request carries
        // its body as a stream, which patched fetches (Next.js) send chunked without a length.
        fetch: async (input) => {
          const request = input as Request; // ky always hands its own Request to fetch
          delivery.started = true;
          try {
            const response = await fetchFn.call(globalThis, request.url, {
              method: request.method,
              headers: request.headers,
              body: body ?? null,
              signal: request.signal,
              redirect: "manual",
            });
            delivery.sent ||= outcomeUnknown(response.status);
            return response;
          } catch (error) {
            delivery.sent ||= mayHaveBeenSent(error);
            throw error;
          }
        },
      });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      throw await toHubError(error, { signal: options.signal, timeout, origin: options.url.origin, write, ...delivery });
    }
  }

  #headers(options: SendOptions): Headers {
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

/**
 * The logging hooks, only when there is a logger: an `afterResponse` hook makes ky clone every
 * response, which costs time on every call (see bench/RESULTS.md).
 */
function logHooks(log: ((event: RequestEvent) => void) | undefined): Hooks {
  if (!log) return {};
  return {
    beforeRequest: [
      (request, _options, { retryCount }) =>
        callUserHook(log, { type: "request", method: request.method, url: request.url, attempt: retryCount + 1 }),
    ],
    afterResponse: [
      (request, _options, response, { retryCount }) =>
        callUserHook(log, {
          type: "response",
          method: request.method,
          url: request.url,
          attempt: retryCount + 1,
          status: response.status,
          requestId: response.headers.get("x-request-id") ?? undefined,
        }),
    ],
  };
}
