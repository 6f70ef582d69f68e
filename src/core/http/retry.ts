import { HTTPError, type RetryOptions as KyRetryOptions } from "ky";
import { HubError } from "../errors/hub-error";
import type { Log } from "../log";
import type { RetryOptions } from "../types/options";
import { AttemptTimeoutError } from "./attempt";
import { RETRY_COST, TIMEOUT_RETRY_COST, type RateGate } from "./rate-gate";
import { parseRetryAfter } from "./retry-after";
import { UserHookError } from "./user-hook";

/** Statuses worth another attempt: timeouts, rate limits, and transient server/proxy failures. */
export const RETRY_STATUSES = [408, 429, 500, 502, 503, 504, 520, 521, 522, 523, 524];

const DEFAULTS: Required<RetryOptions> = { limit: 2, backoff: 300, maxBackoff: 10_000, maxRetryAfter: 60_000 };

export function resolveRetry(retry: number | RetryOptions | undefined): Required<RetryOptions> {
  return typeof retry === "number" ? { ...DEFAULTS, limit: retry } : { ...DEFAULTS, ...retry };
}

/** What one call's retry decisions need, and what they report back. */
export interface RetryContext {
  gate: RateGate;
  signal?: AbortSignal | undefined;
  /** Set when a retry was refused because the client's retry budget was spent. */
  budgetExhausted: boolean;
  log: Log;
  /** What the call is, for log lines: method and URL without query (built only when logged). */
  what: () => string;
}

/**
 * Retries a call may spend on 429s beyond `limit`: a throttle is the rate gate's signal to slow
 * down, and the gate paces the retry, so it is not counted as a failure. Without this, a campaign
 * near the server's limit would lose the odd award to three 429s in a row.
 */
export const THROTTLE_RETRIES = 8;

/**
 * ky's retry settings for one call. ky does the (abortable) backoff waits; whether to retry is
 * decided here, entirely: errors that are not about the network or the server's state are final,
 * a `Retry-After` longer than `maxRetryAfter` is final, failures count against `limit` and 429s
 * against {@link THROTTLE_RETRIES} (none when `limit` is 0: retries are off), and every retry must
 * be paid from the client's retry budget. `Retry-After` itself is honoured by the rate gate, for
 * every request of the client at once.
 */
export function kyRetry(options: Required<RetryOptions>, method: "get" | "post", context: RetryContext): KyRetryOptions {
  // Stryker disable next-line StringLiteral: ky asks shouldRetry (which sets the reason) before every jitter
  let reason = "";
  let failures = 0;
  let throttles = 0;
  // Stryker disable next-line BooleanLiteral: shouldRetry sets it before ky asks for the first delay
  let throttled = false;
  const pay = (cost: number, why: string) => {
    reason = why;
    if (context.gate.spendRetry(cost)) return true;
    context.budgetExhausted = true;
    context.log("warn", "retry-budget-spent", () => ({ call: context.what(), after: why }));
    return false;
  };
  const failure = (cost: number, why: string) => ((throttled = false), ++failures <= options.limit && pay(cost, why));
  return {
    limit: options.limit === 0 ? 0 : options.limit + THROTTLE_RETRIES,
    methods: [method],
    backoffLimit: options.maxBackoff,
    // After a failure, exponential in the failures so far; after a 429, one base step (the gate paces).
    delay: () => options.backoff * (throttled ? 1 : 2 ** (failures - 1)),
    jitter: (delay) => {
      const wait = delay * (0.5 + Math.random() / 2);
      context.log("info", "retry", () => ({ call: context.what(), after: reason, waitMs: Math.round(wait) }));
      return wait;
    },
    shouldRetry: ({ error }) => {
      // Our own errors (validation, signing, a failing user hook) and aborts are final.
      if (error instanceof HubError || error instanceof UserHookError || context.signal?.aborted || error.name === "AbortError") return false;
      if (error instanceof AttemptTimeoutError) return failure(TIMEOUT_RETRY_COST, "timeout");
      if (!(error instanceof HTTPError)) return failure(RETRY_COST, error.message);
      const status = error.response.status;
      if (!RETRY_STATUSES.includes(status)) return false;
      const wait = parseRetryAfter(error.response.headers.get("retry-after"));
      // No Retry-After: NaN, which is never too long.
      if (Number(wait) * 1000 > options.maxRetryAfter) {
        context.log("warn", "retry-after-too-long", () => ({ call: context.what(), retryAfterSeconds: wait }));
        return false;
      }
      if (status !== 429) return failure(RETRY_COST, String(status));
      throttled = true;
      return ++throttles <= THROTTLE_RETRIES && pay(RETRY_COST, "429");
    },
  };
}
