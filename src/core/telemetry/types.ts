/**
 * What the SDK tells an observer about each public call: the context object of the
 * `public-hub-sdk:call` diagnostics channel, and the contract a `telemetry` option implements
 * (`openTelemetry()` from `public-hub-sdk/otel` is one). Types only: the root entry pays no byte
 * and imports nothing for them.
 */

/**
 * One public call (`getHolder`, `awardPoints`, `awardMany`…), as the `public-hub-sdk:call`
 * TracingChannel publishes it and as a {@link HubTelemetry} sees it. The fields above the line
 * are set when the call starts; `attempts`, `status` and `mayHaveBeenApplied` when it ends, and
 * the channel adds `result` or `error` as Node's `tracePromise` does. Never a key, a secret, a
 * signature or a body; `path` and `wallet` name a wallet (they identify people: record them only
 * when you mean to).
 * @example
 * ```ts
 * import { tracingChannel } from "node:diagnostics_channel";
 * import type { HubCallContext } from "public-hub-sdk";
 *
 * tracingChannel<unknown, HubCallContext>("public-hub-sdk:call").subscribe({
 *   start: (call) => console.log("→", call.operation, call.urlTemplate),
 *   asyncEnd: (call) => console.log("←", call.operation, call.status, call.attempts),
 *   error: (call) => console.log("✗", call.operation, call.mayHaveBeenApplied),
 * });
 * ```
 */
export interface HubCallContext {
  /** The public method: `discover`, `getHub`, `getLeaderboard`, `getHolder`, `getStakeStatus`, `awardPoints`, `awardMany`, or `request` (a subclass's own call). */
  operation: string;
  /** HTTP method of its requests. */
  method: "GET" | "POST";
  /** The hub's slug. */
  hub: string;
  /** The client's base address, e.g. `https://hub.example.com/api/v1`. */
  baseUrl: string;
  /** The path template after the base address, e.g. `/hub/{slug}/holder/{wallet}` (`""` for discovery); absent for a subclass's own call. */
  urlTemplate?: string | undefined;
  /** The path sent, after the base address, e.g. `/hub/alpha/holder/0xabc` (no query). */
  path: string;
  /** The wallet the call is about (`getHolder`, `getStakeStatus`, `awardPoints`), when there is one. */
  wallet?: string | undefined;
  /** The `ref` of an award. */
  ref?: string | undefined;
  /** Attempts sent so far (retries and redirects included); final when the call ends. */
  attempts: number;
  /** HTTP status of the last answer, when there was one. */
  status?: number | undefined;
  /** On a failed write: whether it may have been applied (the error's `mayHaveBeenApplied`). */
  mayHaveBeenApplied?: boolean | undefined;
  /** Set by the channel when the call resolves: what it resolved with. */
  result?: unknown;
  /** Set when the call rejects: the error it rejects with. */
  error?: unknown;
}

/**
 * One attempt about to be sent, as {@link HubCallObserver.attempt} gets it.
 * @example
 * ```ts
 * const attempt = (a: HubAttempt) => a.headers.set("x-trace", String(a.attempt));
 * ```
 */
export interface HubAttempt {
  /** 1 for the first attempt, 2 for the first retry… */
  attempt: number;
  /** HTTP method. */
  method: string;
  /** The full URL sent (it may hold a wallet). */
  url: string;
  /** The attempt's headers, signed already: a header added here (`traceparent`) is outside the signature. */
  headers: Headers;
}

/**
 * Follows one public call; every method but `run` and `end` is optional.
 * @example
 * ```ts
 * const observer: HubCallObserver = {
 *   run: (call) => call(),
 *   retry: (reason, waitMs) => console.log("retry after", reason, "in", waitMs, "ms"),
 *   end: (call) => console.log(call.operation, call.status),
 * };
 * ```
 */
export interface HubCallObserver {
  /** Runs the call (an OpenTelemetry observer makes its span active here, so HTTP spans nest under it). */
  run<T>(call: () => Promise<T>): Promise<T>;
  /** An attempt is about to be sent; the function returned, if any, hears its answer's status or its failure. */
  attempt?(attempt: HubAttempt): ((status: number | undefined, error: unknown) => void) | undefined;
  /** A retry is decided: after what (a status, `timeout`, a network error's message), and the wait in milliseconds. */
  retry?(reason: string, waitMs: number): void;
  /** An attempt waits for the client's rate gate, paused by a server's `Retry-After`, for about `waitMs`. */
  pause?(waitMs: number): void;
  /** A campaign's progress (`awardMany` only): the counts its `onProgress` gets. */
  progress?(progress: Readonly<Record<string, number | undefined>>): void;
  /** The call ended: `call.error` is set when it failed. */
  end(call: Readonly<HubCallContext>): void;
}

/**
 * Telemetry for a client: the `telemetry` option. `openTelemetry()` from `public-hub-sdk/otel`
 * implements it; any object with this one method does.
 * @example
 * ```ts
 * const telemetry: HubTelemetry = {
 *   startCall: (call) => ({ run: (run) => run(), end: (done) => console.log(done.operation, done.attempts) }),
 * };
 * const hub = new HubClient({ baseUrl, clientId, hub: "alpha", telemetry });
 * ```
 */
export interface HubTelemetry {
  /** A public call starts; return its observer, or `undefined` to leave it alone. */
  startCall(call: Readonly<HubCallContext>): HubCallObserver | undefined;
}
