import { HubConnectionError } from "./hub-connection-error";

/**
 * Every attempt ran past the per-attempt `timeout`. A timed-out write may still have been applied
 * (`mayHaveBeenApplied`): retry it with the same `ref` and the server applies it at most once.
 *
 * @example
 * ```ts
 * if (error instanceof HubTimeoutError) console.log(error.timeout); // 10000
 * ```
 */
export class HubTimeoutError extends HubConnectionError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubTimeoutError" as const;
  /** The per-attempt timeout in milliseconds. */
  declare readonly timeout: number;

  constructor(init: { timeout: number; origin?: string | undefined; mayHaveBeenApplied?: boolean | undefined }) {
    super({ ...init, message: `Request to ${init.origin ?? "the API"} timed out after ${init.timeout} ms.`, code: "ETIMEDOUT" });
    this.timeout = init.timeout;
  }
}
