/**
 * Where a public call meets its observers, in as few bytes as can be (this is in the browser
 * bundle): the client's `telemetry` option, and the `public-hub-sdk:call` TracingChannel of
 * `node:diagnostics_channel` where the runtime has one. With neither listening, a call costs one
 * cached lookup and one `hasSubscribers` read. The work itself is in `traced.ts`, which the
 * telemetry carries, or which is imported (`#traced`: empty in browser builds) on the first call
 * a channel subscriber hears.
 */
import type { traced } from "./traced";
import type { HubCallContext, HubTelemetry } from "./types";

/** The channel's fixed name: subscribers find `tracing:public-hub-sdk:call:start`, `:end`, `:asyncStart`, `:asyncEnd`, `:error`. */
export const CALL_CHANNEL = "public-hub-sdk:call";

/**
 * The part of Node's `TracingChannel` the SDK uses, typed here: the package's types must not need
 * Node's (a browser project has none).
 */
export interface CallChannel {
  /** Undefined in Bun. */
  readonly hasSubscribers?: boolean | undefined;
  readonly start: { readonly hasSubscribers: boolean };
  readonly end: { readonly hasSubscribers: boolean };
  readonly asyncStart: { readonly hasSubscribers: boolean };
  readonly asyncEnd: { readonly hasSubscribers: boolean };
  readonly error: { readonly hasSubscribers: boolean };
  tracePromise<T>(run: () => Promise<T>, context: HubCallContext): Promise<T>;
}

/** What a telemetry's `traceCall` is: `traced`, with its observer. */
export type Tracer = <T>(client: TracedClient, call: TracedCall, run: (trace?: CallTrace) => Promise<T>, channel?: CallChannel | false | 0) => Promise<T>;

/** The client of a call: `traced` reads its address and hub. */
export interface TracedClient {
  readonly baseUrl: string;
  readonly hub: string;
}

/** A call as the client methods know it (a `HubCall`, or an award's); `traced` describes it (`HubCallContext`) only when someone listens. */
export interface TracedCall {
  method?: "GET" | "POST" | undefined;
  segments: string[];
  query?: Record<string, unknown> | undefined;
  ref?: string | undefined;
  wallet?: string | undefined;
  /** The public method's name where the segments do not tell it (`awardMany`); not `HubCall.operation`, the schema's key. */
  name?: string | undefined;
}

/** A call's hooks for the pipeline (`Call`): they count attempts, keep the last status, and tell the observer. */
export interface CallTrace {
  /** An attempt is about to be sent; returns what hears its answer. */
  attempt(request: Request): (status: number | undefined, error: unknown) => void;
  /** A retry is decided, after `reason`, in `waitMs`. */
  retry(reason: string, waitMs: number): void;
  /** Before the rate gate: `pausedUntil` is the end of the gate's pause (epoch ms). */
  gate(pausedUntil: number): void;
  /** A campaign's progress. */
  progress(progress: object): void;
}

/** Looked up on the first call, once; `0` where the runtime has none (browsers). */
let channel: CallChannel | 0 | undefined;

/**
 * The channel, or `0` where the runtime has none. Next.js's edge runtime has a `process` whose
 * Node APIs throw when touched ("A Node.js API is used… not supported"): that is "none" too.
 */
function lookUpChannel(): CallChannel | 0 {
  try {
    return (globalThis as { process?: { getBuiltinModule?(id: string): { tracingChannel(name: string): CallChannel } | undefined } }).process?.getBuiltinModule?.("node:diagnostics_channel")?.tracingChannel(CALL_CHANNEL) || 0;
  } catch {
    return 0;
  }
}

/** Runs `run` as the public `call` of `client`, observed by `telemetry` and the channel. */
export function traceCall<T>(telemetry: HubTelemetry | undefined, client: TracedClient, call: TracedCall, run: (trace?: CallTrace) => Promise<T>): Promise<T> {
  // Found through `process.getBuiltinModule`, not an import: a browser build carries no `node:`
  // import, and a runtime without Node compatibility has no channel.
  channel ??= lookUpChannel();
  // Bun's TracingChannel has no `hasSubscribers` (undefined): its five channels are asked instead.
  const published = channel;
  const listened = published && (published.hasSubscribers ?? (["start", "end", "asyncStart", "asyncEnd", "error"] as const).some((event) => published[event].hasSubscribers)) && published;
  if (telemetry) return telemetry.traceCall(client, call, run, listened);
  // The module loader keeps the module: a second import is a resolved promise.
  return listened ? (import("#traced") as Promise<{ traced: typeof traced }>).then((module) => module.traced(client, call, run, undefined, listened)) : run();
}
