import { HubConnectionError } from "./hub-connection-error";

/**
 * Every attempt ran past the per-attempt `timeout`. A timed-out write may still have been applied:
 * retry it with the same `ref` and the server applies it at most once.
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
  readonly timeout: number;

  constructor(timeout: number) {
    super(`Request timed out after ${timeout} ms.`);
    this.timeout = timeout;
  }
}
