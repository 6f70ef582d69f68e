/**
 * What the SDK tells about each public call: the context object of the `public-hub-sdk:call`
 * diagnostics channel, and the type of the `telemetry` option. Types only: the root entry pays no
 * byte and imports nothing for them.
 */

import type { Tracer } from "./trace-call";

/**
 * One public call (`getHolder`, `awardPoints`, `awardMany`…), as the `public-hub-sdk:call`
 * TracingChannel publishes it (and as `openTelemetry()` records it). The fields above the line
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
  /** HTTP status of the last attempt's answer; undefined when it got none. */
  status?: number | undefined;
  /** On a failed write: whether it may have been applied (the error's `mayHaveBeenApplied`). */
  mayHaveBeenApplied?: boolean | undefined;
  /** Set by the channel when the call resolves: what it resolved with. */
  result?: unknown;
  /** Set when the call rejects: the error it rejects with. */
  error?: unknown;
}

/**
 * Telemetry for a client, the `telemetry` option: made by `openTelemetry()` from
 * `public-hub-sdk/otel`. To follow calls with a tool of your own, subscribe to the
 * `public-hub-sdk:call` diagnostics channel instead (see {@link HubCallContext}).
 * @example
 * ```ts
 * import { openTelemetry } from "public-hub-sdk/otel";
 *
 * const telemetry: HubTelemetry = openTelemetry();
 * const hub = new HubClient({ baseUrl, clientId, hub: "alpha", telemetry });
 * ```
 */
export interface HubTelemetry {
  /** What records the calls, e.g. `"opentelemetry"`. */
  readonly name: string;
  /**
   * Runs one public call under this telemetry (the clients call it). Typed and published (a
   * telemetry is made by `openTelemetry()`), left out of the reference pages.
   * @hidden
   */
  readonly traceCall: Tracer;
}
