import { HubAbortError } from "../errors/hub-abort-error";

interface Entry<R> {
  promise: Promise<R>;
  /** Absent while a caller without a signal waits: that caller never leaves, so nothing can abort the request. */
  controller: AbortController | undefined;
  /** Callers with a signal still waiting. */
  callers: number;
  /** A caller without a signal joined: the request runs to its end. */
  pinned: boolean;
}

/**
 * Identical reads in flight share one request (a page rendering five widgets that each ask for
 * the hub costs one request, not five). Each caller waits on its own: aborting one caller rejects
 * only its promise, and the shared request is aborted only when no caller is left. Writes are
 * never shared.
 */
export class SharedReads<R> {
  readonly #entries = new Map<string, Entry<R>>();

  /**
   * `start` runs once per key at a time, with a signal that fires when every caller has left; no
   * signal when the first caller has none (it cannot leave, so the request is never aborted).
   */
  share(key: string, start: (signal: AbortSignal | undefined) => Promise<R>, signal?: AbortSignal): Promise<R> {
    if (signal?.aborted) return Promise.reject(new HubAbortError({ cause: signal.reason }));
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const controller = signal ? new AbortController() : undefined;
      const created: Entry<R> = { controller, callers: 0, pinned: false, promise: start(controller?.signal) };
      const forget = () => this.#entries.get(key) === created && this.#entries.delete(key);
      created.promise.then(forget, forget);
      this.#entries.set(key, (entry = created));
    }
    const shared = entry;
    // Stryker disable next-line ConditionalExpression,BlockStatement: counted as a caller instead, one without a signal never leaves, which keeps the request as pinning does
    if (!signal) {
      // Waits for the end like the request itself: the shared promise is its answer.
      shared.pinned = true;
      return shared.promise;
    }
    shared.callers++;
    return new Promise<R>((resolve, reject) => {
      const leave = () => {
        // Stryker disable next-line OptionalChaining: callers without a signal returned above
        signal?.removeEventListener("abort", onAbort);
        shared.callers--;
      };
      const onAbort = () => {
        leave();
        reject(new HubAbortError({ cause: signal!.reason }));
        if (shared.callers === 0 && !shared.pinned) {
          // Stryker disable next-line OptionalChaining: no controller only when a caller without a signal started it, which pins it
          shared.controller?.abort(signal!.reason);
          if (this.#entries.get(key) === shared) this.#entries.delete(key);
        }
      };
      // Stryker disable next-line ObjectLiteral,BooleanLiteral,OptionalChaining: `once` is tidiness only: an abort event fires once, and the listener is removed when done; callers without a signal returned above
      signal?.addEventListener("abort", onAbort, { once: true });
      shared.promise.then(
        (value) => (leave(), resolve(value)),
        (error: unknown) => (leave(), reject(error)),
      );
    });
  }
}
