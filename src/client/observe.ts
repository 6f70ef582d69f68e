/**
 * @module
 * How a client runs a public call under a telemetry, kept with the telemetry rather than in the
 * client: a client without one never loads it (242 B of the browser bundle, docs/build-notes.md).
 */
import { safely, type CallTrace, type Log } from "../core/request";
import type { HubCallContext, HubCallObserver, HubTelemetry, HubTelemetryDefinition, ObservedCall } from "../core/types/telemetry";
import { pathOf } from "./check-input";

/**
 * Makes a telemetry of your own into the client's `telemetry` option: the SDK tells its
 * `startCall` about every public call, and an observer that throws is caught and logged, never the
 * call's outcome. (`openTelemetry()` from `public-hub-sdk/otel` is made with it.)
 * @example
 * ```ts
 * const telemetry = defineTelemetry({
 *   name: "console",
 *   startCall: (call) => ({ run: (run) => run(), end: (done) => console.log(done.operation, done.status, done.attempts) }),
 * });
 * ```
 */
export function defineTelemetry(definition: HubTelemetryDefinition): HubTelemetry {
  return { name: definition.name, startCall: (call) => definition.startCall(call), observe: (call, log, run) => observe(definition, call, log as Log, run as (trace: CallTrace | undefined) => Promise<never>) };
}

function observe<R>(telemetry: HubTelemetryDefinition, call: ObservedCall, log: Log, run: (trace: CallTrace | undefined) => Promise<R>): Promise<R> {
  const context: HubCallContext = {
    operation: call.name,
    method: call.method ?? "GET",
    hub: call.hub,
    baseUrl: call.baseUrl,
    urlTemplate: call.template,
    path: call.segments.length === 0 ? "" : `/${pathOf(call.segments)}`,
    wallet: call.wallet,
    ref: call.ref,
    attempts: 0,
  };
  const safe = <V>(action: () => V): V | undefined => safely(log, action);
  const observer: HubCallObserver | undefined = safe(() => telemetry.startCall(context));
  const trace: CallTrace = {
    attempt: (request, attempt) => {
      context.attempts = attempt;
      const heard = observer?.attempt?.(request, attempt);
      return (status, error) => {
        context.status = status;
        heard?.(status, error);
      };
    },
    retry: (reason, waitMs) => observer?.retry?.(reason, waitMs),
    pause: (waitMs) => observer?.pause?.(waitMs),
    progress: (progress) => safe(() => observer?.progress?.(progress as Record<string, number>)),
  };
  const observed = async () => {
    try {
      return await run(trace);
    } catch (error) {
      context.error = error;
      if (context.method === "POST") context.mayHaveBeenApplied = (error as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied ?? false;
      throw error;
    } finally {
      safe(() => observer?.end(context));
    }
  };
  if (!observer) return observed();
  // The observer's `run` makes its context active. The call runs once, whatever `run` throws or returns.
  let started: Promise<R> | undefined;
  const once = () => (started ??= observed());
  safe(() => observer.run(once));
  return once();
}
