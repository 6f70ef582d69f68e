/**
 * The one place a public call meets its observers: the `public-hub-sdk:call` TracingChannel of
 * `node:diagnostics_channel` (where the runtime has one) and the client's `telemetry` option.
 * With neither listening, a call costs one cached lookup and one `hasSubscribers` read.
 */
import type { TracingChannel } from "node:diagnostics_channel";
import { pathOf } from "../url";
import type { HubCallContext, HubCallObserver, HubTelemetry } from "./types";

/** The channel's fixed name: subscribers find `tracing:public-hub-sdk:call:start`, `:end`, `:asyncStart`, `:asyncEnd`, `:error`. */
export const CALL_CHANNEL = "public-hub-sdk:call";

type Channel = TracingChannel<unknown, HubCallContext>;
/** Looked up once, on the first call; `null` where the runtime has none (browsers). */
let channel: Channel | null | undefined;

/**
 * The channel, created on first use. Found through `process.getBuiltinModule` rather than an
 * import, so browser builds carry no `node:` import and edge runtimes without Node compatibility
 * simply have none.
 */
function callChannel(): Channel | null {
  if (channel === undefined) {
    const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => typeof import("node:diagnostics_channel") | undefined } }).process;
    channel = process?.getBuiltinModule?.("node:diagnostics_channel")?.tracingChannel<unknown, HubCallContext>(CALL_CHANNEL) ?? null;
  }
  return channel;
}

/** A call's hooks for the pipeline (`Call`): counts attempts and the last status, and tells the observer. */
export class CallTrace {
  constructor(
    readonly context: HubCallContext,
    readonly observer: HubCallObserver | undefined,
  ) {}

  /** An attempt is about to be sent; returns what hears its answer. */
  attempt(request: Request): (status: number | undefined, error: unknown) => void {
    const context = this.context;
    const attempt = ++context.attempts;
    const heard = this.observer?.attempt?.({ attempt, method: request.method, url: request.url, headers: request.headers });
    return (status, error) => {
      context.status = status ?? context.status;
      heard?.(status, error);
    };
  }

  retry(reason: string | undefined, waitMs: number): void {
    this.observer?.retry?.(String(reason), waitMs);
  }

  /** Before the rate gate: `pausedUntil` is the gate's pause end (epoch ms). */
  gate(pausedUntil: number): void {
    const waitMs = pausedUntil - Date.now();
    if (waitMs > 0) this.observer?.pause?.(waitMs);
  }
}

/**
 * Runs one public call under its observers. `describe` builds the context only when someone
 * listens; `run` gets the trace to hand the pipeline (undefined when nobody listens).
 */
export function traceCall<T>(telemetry: HubTelemetry | undefined, describe: () => HubCallContext, run: (trace?: CallTrace) => Promise<T>): Promise<T> {
  const published = callChannel();
  // Runtimes whose TracingChannel lacks `hasSubscribers` (undefined) always publish.
  const listened = published !== null && published.hasSubscribers !== false;
  if (!telemetry && !listened) return run();
  const context = describe();
  const observer = telemetry?.startCall(context);
  const traced = async () => {
    try {
      return await run(new CallTrace(context, observer));
    } catch (error) {
      context.error = error;
      if (context.method === "POST") context.mayHaveBeenApplied = (error as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied ?? false;
      throw error;
    } finally {
      observer?.end(context);
    }
  };
  const observed = observer ? () => observer.run(traced) : traced;
  return listened ? published.tracePromise(observed, context) : observed();
}

// The path templates of the SDK's own calls, by operation; a wallet segment is `{wallet}`.
const OPERATIONS: Record<string, string> = {
  "": "discover",
  "/hub/{slug}": "getHub",
  "/hub/{slug}/leaderboard": "getLeaderboard",
  "/hub/{slug}/holder/{wallet}": "getHolder",
  "/hub/{slug}/stake-status": "getStakeStatus",
  "/hub/{slug}/bits/earn": "awardPoints",
};

/** What a call adds to its path: the query, an award's `ref` and `wallet`, an operation of its own (`awardMany`). */
export interface CallExtras {
  query?: Record<string, unknown> | undefined;
  ref?: string | undefined;
  wallet?: string | undefined;
  operation?: string | undefined;
}

/** The context of a call to `segments` (as `HubCall` names them), built when someone listens. */
export function describeCall(base: URL, hub: string, method: "GET" | "POST", segments: string[], extras: CallExtras = {}): HubCallContext {
  const template = segments.map((segment, i) => (i === 1 && segments[0] === "hub" ? "{slug}" : i === 3 && segments[2] === "holder" ? "{wallet}" : segment)).join("/");
  const urlTemplate = template && `/${template}`;
  const known = OPERATIONS[urlTemplate];
  const wallet = extras.wallet ?? (template.endsWith("{wallet}") ? segments[3] : extras.query?.wallet);
  const path = pathOf(segments);
  return {
    operation: extras.operation ?? known ?? "request",
    method,
    hub,
    baseUrl: base.href,
    urlTemplate: known === undefined ? undefined : urlTemplate,
    path: path && `/${path}`,
    wallet: wallet === undefined ? undefined : String(wallet),
    ref: extras.ref,
    attempts: 0,
  };
}
