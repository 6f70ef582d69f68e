import { HubError } from "./hub-error";

/**
 * The caller's `AbortSignal` fired: during a request or during a backoff wait between retries.
 * The signal's reason is in `cause`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const pending = hub.getHub({ signal: controller.signal });
 * controller.abort();
 * await pending; // throws HubAbortError
 * ```
 */
export class HubAbortError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubAbortError" as const;

  constructor(init: { cause?: unknown; mayHaveBeenApplied?: boolean | undefined } = {}) {
    super({ ...init, message: "Request aborted by the caller." });
  }
}
