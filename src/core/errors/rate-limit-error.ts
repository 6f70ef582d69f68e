import { HubApiError, type ApiErrorInit } from "./hub-api-error";

/**
 * Too many requests (429), after retries, or with a `Retry-After` longer than the client waits.
 *
 * @example
 * ```ts
 * if (error instanceof RateLimitError && error.retryAfter !== undefined) {
 *   setTimeout(retryLater, error.retryAfter * 1000);
 * }
 * ```
 */
export class RateLimitError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "RateLimitError" as const;
  /** Seconds to wait before trying again, from `Retry-After` (seconds or HTTP date), when sent. */
  declare readonly retryAfter: number | undefined;

  constructor(init: ApiErrorInit) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}
