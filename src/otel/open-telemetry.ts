/**
 * OpenTelemetry for the SDK's clients: one span per public call, a CLIENT span per attempt where
 * no HTTP auto-instrumentation makes one, W3C trace context on each attempt, and three metrics.
 * The only module that imports `@opentelemetry/api` (an optional peer dependency).
 */
import { context, metrics, propagation, trace, SpanKind, SpanStatusCode, type Attributes, type Context, type Counter, type Histogram, type MeterProvider, type Span, type TracerProvider } from "@opentelemetry/api";
import { defineTelemetry } from "../client/observe";
import { HubAbortError } from "../core/errors";
import type { HubCallContext, HubCallObserver, HubTelemetry } from "../core/types/telemetry";
import { ATTR, EVENT, METRIC, SCOPE } from "./attributes";

/** Options of {@link openTelemetry}. */
export interface OpenTelemetryOptions {
  /**
   * Where spans go.
   * @default the global tracer provider (`trace.setGlobalTracerProvider`, what the OTel Node SDK registers)
   */
  tracerProvider?: TracerProvider;
  /** Where metrics go. @default the global meter provider, looked up at the first call's end */
  meterProvider?: MeterProvider;
  /**
   * Record the wallet of a call (`public_hub.wallet`, and `url.full` on attempt spans). Wallets
   * identify people: off unless you mean it. Off, a wallet in an error message is replaced by `{wallet}`.
   * @default false
   */
  recordWallets?: boolean;
  /**
   * Send W3C trace context (`traceparent`, `tracestate`) on each attempt: `true`, `false`, or the
   * origins allowed (a new header makes a browser send a CORS preflight, which the hub may refuse).
   * It is never part of what a write signs.
   * @default true outside a browser; in a browser, no origin
   */
  propagateTraceContext?: boolean | readonly string[];
  /**
   * A CLIENT span per attempt, where no HTTP auto-instrumentation (`@opentelemetry/instrumentation-undici`
   * in Node, `instrumentation-fetch` in a browser) makes one already: for browsers, Bun, Deno and
   * workers. Off, each attempt's `traceparent` names the call's span; the call's span has the
   * attempts' count (`http.request.resend_count`) and retries either way.
   * @default false
   */
  attemptSpans?: boolean;
}

// The semconv's bucket boundaries for HTTP client durations, in seconds.
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];

interface Instruments {
  duration: Histogram;
  retries: Counter;
  pauses: Counter;
}

type DiagnosticsChannel = { hasSubscribers(name: string): boolean };
const diagnostics = (globalThis as { process?: { getBuiltinModule?: (id: string) => DiagnosticsChannel | undefined } }).process?.getBuiltinModule?.("node:diagnostics_channel");

/**
 * Whether HTTP auto-instrumentation will make the attempt's span and send its trace context:
 * `instrumentation-undici` subscribes to undici's channel; `instrumentation-fetch` wraps `fetch`
 * (shimmer marks it). Where it does, a span or `traceparent` of ours would double theirs.
 */
function autoInstrumented(): boolean {
  return diagnostics?.hasSubscribers("undici:request:create") === true || (globalThis.fetch as { __wrapped?: unknown } | undefined)?.__wrapped === true;
}

const setHeader = { set: (headers: Headers, key: string, value: string) => headers.set(key, value) };

/**
 * Telemetry through OpenTelemetry, for the `telemetry` option of `HubClient` and
 * `HubServerClient`: spans named `public_hub.<operation>` following the HTTP semantic
 * conventions, retries and rate-gate pauses as span events, `traceparent` on each attempt, and
 * the metrics `public_hub.client.operation.duration`, `public_hub.client.retries` and
 * `public_hub.client.rate_gate.pauses`. Never recorded: the key, the secret or its hash, the
 * signature, a body; wallets only with `recordWallets`. See docs/observability.md.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): HubTelemetry {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const recordWallets = options.recordWallets ?? false;
  const propagate = options.propagateTraceContext ?? typeof document === "undefined";
  let instruments: Instruments | undefined;
  // Created at the first call's end: the global meter provider is not a proxy, and is often set after the client.
  const meter = (): Instruments => {
    if (instruments) return instruments;
    const m = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
    return (instruments = {
      duration: m.createHistogram(METRIC.duration, { unit: "s", description: "Duration of the SDK's public calls, retries and waits included.", advice: { explicitBucketBoundaries: DURATION_BUCKETS } }),
      retries: m.createCounter(METRIC.retries, { unit: "{retry}", description: "Retries decided by the SDK." }),
      pauses: m.createCounter(METRIC.pauses, { unit: "{pause}", description: "Attempts held by the client's rate gate for a server's Retry-After." }),
    });
  };

  // A client's base address, parsed once (a URL parse per call is a measured share of the cost).
  let server: { baseUrl: string; path: string; address: Attributes } | undefined;
  const serverOf = (baseUrl: string) => {
    if (server?.baseUrl !== baseUrl) {
      const base = new URL(baseUrl);
      server = { baseUrl, path: base.pathname, address: { [ATTR.serverAddress]: base.hostname, [ATTR.serverPort]: Number(base.port) || (base.protocol === "https:" ? 443 : 80) } };
    }
    return server;
  };

  const startCall = (call: Readonly<HubCallContext>): HubCallObserver => {
    const started = performance.now();
    const { path, address } = serverOf(call.baseUrl);
    const template = call.urlTemplate === undefined ? undefined : `${path}${call.urlTemplate}`;
    const http: Attributes = {
      [ATTR.method]: call.method,
      ...address,
      ...(template !== undefined && { [ATTR.urlTemplate]: template }),
    };
    const span = tracer.startSpan(`public_hub.${call.operation}`, {
      kind: SpanKind.INTERNAL,
      attributes: {
        ...http,
        [ATTR.operation]: call.operation,
        [ATTR.hub]: call.hub,
        ...(call.ref !== undefined && { [ATTR.ref]: call.ref }),
        ...(recordWallets && call.wallet !== undefined && { [ATTR.wallet]: call.wallet }),
      },
    });
    const active: Context = trace.setSpan(context.active(), span);
    const scrub = (text: string): string => (recordWallets || !call.wallet ? text : text.split(call.wallet).join("{wallet}").split(encodeURIComponent(call.wallet)).join("{wallet}"));
    let nextProgress = 1;

    return {
      run: (run) => context.with(active, run),

      attempt({ method, url, headers }, attempt) {
        if (autoInstrumented()) return undefined;
        const sends = propagate === true || (Array.isArray(propagate) && propagate.includes(new URL(url).origin));
        const attemptSpan = !options.attemptSpans ? undefined : tracer.startSpan(template === undefined ? method : `${method} ${template}`, {
          kind: SpanKind.CLIENT,
          attributes: { ...http, ...(attempt > 1 && { [ATTR.resendCount]: attempt - 1 }), ...(recordWallets && { [ATTR.urlFull]: url }) },
        }, active);
        if (sends) propagation.inject(attemptSpan ? trace.setSpan(active, attemptSpan) : active, headers, setHeader);
        return attemptSpan && ((status, error) => {
          if (status !== undefined) attemptSpan.setAttribute(ATTR.statusCode, status);
          if (status === undefined || status >= 400) {
            attemptSpan.setAttribute(ATTR.errorType, status === undefined ? errorType(error) : String(status));
            attemptSpan.setStatus({ code: SpanStatusCode.ERROR });
          }
          attemptSpan.end();
        });
      },

      retry(reason, waitMs) {
        span.addEvent(EVENT.retry, { [ATTR.retryReason]: scrub(reason), [ATTR.waitMs]: Math.round(waitMs) });
        meter().retries.add(1, { [ATTR.operation]: call.operation, [ATTR.retryReason]: /^\d+$|^timeout$/.test(reason) ? reason : "network" });
      },

      pause(waitMs) {
        span.addEvent(EVENT.pause, { [ATTR.waitMs]: Math.round(waitMs) });
        meter().pauses.add(1, { [ATTR.operation]: call.operation });
      },

      // A campaign's progress at about every tenth of a known total (else at 1, 2, 4, 8… done),
      // so that a long one stays within a span's event limit.
      progress(progress) {
        const { done = 0, total } = progress;
        if (done < nextProgress) return;
        nextProgress = total ? done + Math.ceil(total / 10) : done * 2;
        const counts = Object.entries(progress).filter(([key, value]) => value !== undefined && key !== "rate" && key !== "elapsedMs");
        span.addEvent(EVENT.progress, Object.fromEntries(counts.map(([key, value]) => [`public_hub.campaign.${key}`, value as number])));
      },

      end(done) {
        const error = done.error;
        const outcome = error === undefined ? "success" : error instanceof HubAbortError ? "aborted" : "error";
        const type = outcome === "error" ? errorType(error) : undefined;
        span.setAttribute(ATTR.outcome, outcome);
        if (done.status !== undefined) span.setAttribute(ATTR.statusCode, done.status);
        if (done.attempts > 1) span.setAttribute(ATTR.resendCount, done.attempts - 1);
        if (done.mayHaveBeenApplied !== undefined) span.setAttribute(ATTR.mayHaveBeenApplied, done.mayHaveBeenApplied);
        if (type !== undefined) {
          const { name, message, stack } = error as Partial<Error>;
          const recorded = scrub(messageOf(error));
          span.setAttribute(ATTR.errorType, type);
          span.recordException({ name: String(name), message: recorded, ...(typeof stack === "string" && { stack: scrub(stack.replace(String(message), recorded)) }) });
          span.setStatus({ code: SpanStatusCode.ERROR, message: recorded });
        }
        span.end();
        meter().duration.record((performance.now() - started) / 1000, { [ATTR.operation]: done.operation, [ATTR.outcome]: outcome, ...(type !== undefined && { [ATTR.errorType]: type }) });
      },
    };
  };
  return defineTelemetry({ name: "opentelemetry", startCall });
}

/** The HTTP status of a refusal (a `HubApiError`); a `HubResponseError`'s is a 2xx, not a refusal. */
function refusalStatus(error: unknown): number | undefined {
  const { status } = (error ?? {}) as { status?: unknown };
  return typeof status === "number" && status >= 400 ? status : undefined;
}

/** `error.type`: an HTTP refusal's code (a problem's `type`, an error code) else its status; else the error's class name (`HubTimeoutError`…). */
function errorType(error: unknown): string {
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const status = refusalStatus(error);
  if (status !== undefined) return typeof code === "string" && code !== "" ? code : String(status);
  return typeof name === "string" && name !== "" ? name : "_OTHER";
}

/**
 * The message recorded: never a body's text. A refusal's message is the server's (from its body)
 * and an unusable answer's names what it held: the status, or the problem, is recorded instead.
 */
function messageOf(error: unknown): string {
  const { name, message, problem } = (error ?? {}) as { name?: unknown; message?: unknown; problem?: unknown };
  const status = refusalStatus(error);
  if (status !== undefined) return `${String(name)}: HTTP ${status}`;
  // A thrown string is its own message.
  return typeof problem === "string" ? `${String(name)}: ${problem}` : String(message ?? error);
}
