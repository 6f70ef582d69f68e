/**
 * A public call under its observers: the context it publishes, the hooks the pipeline calls,
 * the `public-hub-sdk:call` TracingChannel and a telemetry's observer. Loaded only where someone
 * listens (see `trace-call.ts`): by `public-hub-sdk/otel`, or, in runtimes with
 * `node:diagnostics_channel`, on the first call a channel subscriber is there to hear.
 */
import { pathOf } from "../url";
import type { CallChannel, CallTrace, TracedCall, TracedClient } from "./trace-call";
import type { HubCallContext } from "./types";

/**
 * Follows one public call for a telemetry (`openTelemetry()`); every method but `run` and `end`
 * is optional.
 */
export interface HubCallObserver {
  /** Runs the call (an OpenTelemetry observer makes its span active here, so HTTP spans nest under it). */
  run<T>(call: () => Promise<T>): Promise<T>;
  /**
   * Attempt number `attempt` (1, 2…) is about to be sent. Its headers are signed already: a
   * header added here (`traceparent`) is outside the signature. The function returned hears the
   * attempt's status, or its failure.
   */
  attempt?(request: Request, attempt: number): ((status: number | undefined, error: unknown) => void) | undefined;
  /** A retry is decided: after what (a status, `timeout`, a network error's message), and the wait in milliseconds. */
  retry?(reason: string, waitMs: number): void;
  /** An attempt waits for the client's rate gate, paused by a server's `Retry-After`, for about `waitMs`. */
  pause?(waitMs: number): void;
  /** A campaign's progress (`awardMany` only): the counts its `onProgress` gets. */
  progress?(progress: Readonly<Record<string, number | undefined>>): void;
  /** The call ended: `call.error` is set when it failed. */
  end(call: Readonly<HubCallContext>): void;
}

/** Starts observing one call; what a telemetry is made of. */
export type StartCall = (call: Readonly<HubCallContext>) => HubCallObserver | undefined;

/** Runs `run` as the public call `raw` of `client`, observed by `startCall` and published on `channel`, either when given. */
export function traced<T>(client: TracedClient, raw: TracedCall, run: (trace?: CallTrace) => Promise<T>, startCall?: StartCall, channel?: CallChannel | false | 0): Promise<T> {
  const call = describeCall(client, raw);
  const observer = startCall?.(call);
  const hooks: CallTrace = {
    attempt(request) {
      // Counted apart: an optional call would skip the count along with the observer.
      const attempt = ++call.attempts;
      const heard = observer?.attempt?.(request, attempt);
      return (status, error) => {
        call.status = status;
        heard?.(status, error);
      };
    },
    retry: (reason, waitMs) => observer?.retry?.(reason, waitMs),
    gate(pausedUntil) {
      const waitMs = pausedUntil - Date.now();
      if (waitMs > 0) observer?.pause?.(waitMs);
    },
    progress: (progress) => observer?.progress?.(progress as Record<string, number>),
  };
  const observed = async () => {
    try {
      return await run(hooks);
    } catch (error) {
      call.error = error;
      if (call.method === "POST") call.mayHaveBeenApplied = (error as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied ?? false;
      throw error;
    } finally {
      observer?.end(call);
    }
  };
  const inside = observer ? () => observer.run(observed) : observed;
  return channel ? channel.tracePromise(inside, call) : inside();
}

/** The context of a call of `client` (as `HubCall` names its segments). */
export function describeCall({ baseUrl, hub }: TracedClient, { method = "GET", segments, query, ref, wallet, name }: TracedCall): HubCallContext {
  // The SDK's own calls by the segment after the hub's slug (none: `getHub`); discovery has no segment at all.
  const operations: Record<string, string> = { hub: "getHub", leaderboard: "getLeaderboard", holder: "getHolder", "stake-status": "getStakeStatus", bits: "awardPoints" };
  const templates: Record<string, string> = { discover: "", getHub: "/hub/{slug}", getLeaderboard: "/hub/{slug}/leaderboard", getHolder: "/hub/{slug}/holder/{wallet}", getStakeStatus: "/hub/{slug}/stake-status", awardPoints: "/hub/{slug}/bits/earn" };
  const [first, slug, kind = first] = segments;
  // An SDK call is one of the table's, addressed to the client's hub.
  const known = segments.length === 0 ? "discover" : slug === hub && segments.length < 5 ? operations[kind!] : undefined;
  const walletOf = wallet ?? (known === "getHolder" ? segments[3] : query?.wallet);
  const path = pathOf(segments);
  return {
    operation: name ?? known ?? "request",
    method,
    hub,
    baseUrl,
    urlTemplate: known && templates[known],
    path: path && `/${path}`,
    wallet: walletOf === undefined ? undefined : String(walletOf),
    ref,
    attempts: 0,
  };
}
