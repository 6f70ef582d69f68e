/**
 * What the SDK tells a telemetry about each public call: the type of the `telemetry` option.
 * Types only: the root entry pays no byte for them.
 */

/**
 * One public call (`getHolder`, `awardPoints`, `awardMany`…), as a telemetry hears it (and as
 * `openTelemetry()` records it). The fields above the line
 * are set when the call starts; `attempts`, `status`, `mayHaveBeenApplied` and `error` when it ends. Never a key, a secret, a
 * signature or a body; `path` and `wallet` name a wallet (they identify people: record them only
 * when you mean to).
 * @example
 * ```ts
 * const telemetry: HubTelemetry = {
 *   name: "console",
 *   startCall: (call: HubCallContext) => ({ run: (run) => run(), end: (done) => console.log(done.operation, done.status, done.attempts) }),
 * };
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
  /** HTTP status of the last attempt's answer; undefined when it got none. */
  status?: number | undefined;
  /** On a failed write: whether it may have been applied (the error's `mayHaveBeenApplied`). */
  mayHaveBeenApplied?: boolean | undefined;
  /** Set when the call rejects: the error it rejects with. */
  error?: unknown;
}

/**
 * Follows one public call for a telemetry (what `openTelemetry()` returns for each call); every
 * method but `run` and `end` is optional. A method that throws is caught and logged: an observer
 * never changes a call's outcome.
 */
export interface HubCallObserver {
  /** Runs the call (an OpenTelemetry observer makes its span active here, so HTTP spans nest under it). The call runs once whatever `run` does, and its outcome is the call's own, not what `run` returns. */
  run<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Attempt number `attempt` (1, 2…) is about to be sent, its headers signed already: a header
   * added here (`traceparent`) is outside the signature. The function returned hears its status, or its failure.
   */
  attempt?(request: Request, attempt: number): ((status: number | undefined, error: unknown) => void) | undefined;
  /** A retry is decided: after what (a status, `timeout`, a network error's message), and the wait in milliseconds. */
  retry?(reason: string, waitMs: number): void;
  /** An attempt waits for the pace the server set (`Retry-After`, an announced limit), about `waitMs`. */
  pause?(waitMs: number): void;
  /** A campaign's progress (`awardMany` only): the counts its `onProgress` gets. */
  progress?(progress: Readonly<Record<string, number | undefined>>): void;
  /** The call ended: `call.error` is set when it failed. */
  end(call: Readonly<HubCallContext>): void;
}

/** A telemetry of your own, before `defineTelemetry` makes it the `telemetry` option. */
export interface HubTelemetryDefinition {
  /** What records the calls, e.g. `"opentelemetry"`. */
  readonly name: string;
  /** Starts observing one public call; `undefined` to leave it unobserved. */
  startCall(call: Readonly<HubCallContext>): HubCallObserver | undefined;
}

/** @internal A public call as the client hands it to its telemetry. */
export interface ObservedCall {
  name: string;
  method?: "GET" | "POST" | undefined;
  segments: string[];
  template?: string | undefined;
  wallet?: string | undefined;
  ref?: string | undefined;
  hub: string;
  baseUrl: string;
}

/**
 * Telemetry for a client, the `telemetry` option: made by `openTelemetry()` from
 * `public-hub-sdk/otel`, or by `defineTelemetry()` from your own {@link HubTelemetryDefinition}.
 */
export interface HubTelemetry extends HubTelemetryDefinition {
  /** @internal How a client runs one call under this telemetry (`defineTelemetry` sets it: a client without a telemetry never loads it). */
  readonly observe: <R>(call: ObservedCall, log: unknown, run: (trace: never) => Promise<R>) => Promise<R>;
}
