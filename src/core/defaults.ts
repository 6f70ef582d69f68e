import type { LogLevel } from "./log";
import type { RateLimitOptions, RetryOptions } from "./types/options";

/**
 * Every default of the client's options, named once (their `@default` tags in
 * `types/options.ts` document these values).
 */
export const CLIENT_DEFAULTS = {
  /** Per attempt, in milliseconds. */
  timeout: 10_000,
  retry: { limit: 2, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 } satisfies Required<RetryOptions>,
  rateLimit: { maxConcurrency: 32, maxRequestsPerSecond: Infinity, retryBudget: 500 } satisfies Required<RateLimitOptions>,
  dedupeReads: true,
  logLevel: "warn" satisfies LogLevel,
} as const;
