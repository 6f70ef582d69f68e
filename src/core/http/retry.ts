import { HTTPError, type RetryOptions as KyRetryOptions } from "ky";
import { HubError } from "../errors/hub-error";
import type { RetryOptions } from "../types/options";
import { parseRetryAfter } from "./retry-after";
import { UserHookError } from "./user-hook";

/** Statuses worth another attempt: timeouts, rate limits, and transient server/proxy failures. */
export const RETRY_STATUSES = [408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524];

const DEFAULTS: Required<RetryOptions> = { limit: 2, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 };

export function resolveRetry(retry: number | RetryOptions | undefined): Required<RetryOptions> {
  return typeof retry === "number" ? { ...DEFAULTS, limit: retry } : { ...DEFAULTS, ...retry };
}

/**
 * ky's retry settings for one call. ky does the waiting (abortable) and reads `Retry-After`
 * (seconds or HTTP date) for every retried status; this adds jitter and refuses to wait longer
 * than `maxRetryAfter` or to retry errors that are not about the network.
 */
export function kyRetry(options: Required<RetryOptions>, method: "get" | "post"): KyRetryOptions {
  return {
    limit: options.limit,
    methods: [method],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    backoffLimit: options.maxBackoff,
    retryOnTimeout: true,
    delay: (attempt) => options.backoff * 2 ** (attempt - 1),
    jitter: (delay) => delay * (0.5 + Math.random() / 2),
    shouldRetry: ({ error }) => {
      // Our own errors (validation, signing, a failing user hook) and aborts are final.
      if (error instanceof HubError || error instanceof UserHookError || error.name === "AbortError") return false;
      if (error instanceof HTTPError) {
        const wait = parseRetryAfter(error.response.headers.get("retry-after"));
        if (wait !== undefined && wait * 1000 > options.maxRetryAfter) return false;
      }
      return undefined; // ky decides: status list, Retry-After, timeouts, network errors
    },
  };
}
