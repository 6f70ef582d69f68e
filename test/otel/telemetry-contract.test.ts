import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { SpanKind, SpanStatusCode, type Attributes, type Tracer, type TracerProvider } from "@opentelemetry/api";
import type { HistogramMetricData } from "@opentelemetry/sdk-metrics";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BadRequestError, HubApiError, HubConnectionError, HubResponseError, HubTimeoutError } from "public-hub-sdk";
import { openTelemetry, type HubCallContext, type HubCallObserver, type OpenTelemetryOptions } from "public-hub-sdk/otel";
import { meters } from "../helpers/otel-meters";

// `openTelemetry()` on its own, driven through the `HubTelemetry` contract a client uses (startCall,
// attempt, retry, pause, progress, end) with the real OpenTelemetry SDK behind it: a registered
// tracer provider (context manager, W3C propagator) and in-memory exporters. No HTTP
// auto-instrumentation is registered here, so attempts are the SDK's own to trace.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();

const shared = meters();

afterAll(async () => {
  await provider.shutdown();
  await shared.provider.shutdown();
});
beforeEach(() => exporter.reset());
afterEach(() => vi.unstubAllGlobals());

const WALLET = "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89";
/** A CAIP-10 account id: its percent-encoded form (`%3A`) differs from the raw one. */
const CAIP_WALLET = `eip155:1:${WALLET}`;
const BASE = "https://hub.example.com/api/v1";

const telemetry = (options: OpenTelemetryOptions = {}) => openTelemetry({ tracerProvider: provider, meterProvider: shared.provider, ...options });
/** A `getHolder` call as a client reports it at its start. */
const holderCall = (overrides: Partial<HubCallContext> = {}): HubCallContext => ({
  operation: "getHolder",
  method: "GET",
  hub: "alpha",
  baseUrl: BASE,
  urlTemplate: "/hub/{slug}/holder/{wallet}",
  path: `/hub/alpha/holder/${WALLET}`,
  wallet: WALLET,
  attempts: 1,
  ...overrides,
});
const start = (call: HubCallContext, options: OpenTelemetryOptions = {}): HubCallObserver => {
  const observer = telemetry(options).startCall(call);
  // A guard, not a test: every test below reads what this observer did.
  if (!observer) throw new Error("openTelemetry()'s startCall returned no observer");
  return observer;
};
const spans = () => exporter.getFinishedSpans();
const one = (name: string): ReadableSpan => {
  const found = spans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const clientSpans = () => spans().filter((span) => span.kind === SpanKind.CLIENT);
const exceptionOf = (span: ReadableSpan) => span.events.find((event) => event.name === "exception")?.attributes;
/** Ends a `getHolder` call that failed with `error`; its span. */
const failed = (error: unknown, options: OpenTelemetryOptions = {}, overrides: Partial<HubCallContext> = {}) => {
  const call = holderCall(overrides);
  start(call, options).end({ ...call, error });
  return one("public_hub.getHolder");
};
const apiError = (status: number, code: string | undefined, Class: typeof HubApiError = HubApiError) =>
  new Class({ status, code, message: `${status} refused: the server's own words`, body: { detail: "the server's own words" }, headers: {} });

describe("openTelemetry(): the call's span", () => {
  it("is named opentelemetry, as the clients' telemetry option reports it", () => {
    expect(openTelemetry({ tracerProvider: provider }).name).toBe("opentelemetry");
  });

  it("a base address without a port gets the scheme's default: 443 for https, 80 for http", () => {
    const t = telemetry();
    for (const baseUrl of ["https://hub.example.com/api/v1", "http://hub.example.com/api/v1", "https://hub.example.com:8443/api/v1"]) {
      const call = holderCall({ baseUrl });
      t.startCall(call)!.end({ ...call, status: 200 });
    }
    expect(spans().map((span) => [span.attributes["server.address"], span.attributes["server.port"], span.attributes["url.template"]])).toEqual([
      ["hub.example.com", 443, "/api/v1/hub/{slug}/holder/{wallet}"],
      ["hub.example.com", 80, "/api/v1/hub/{slug}/holder/{wallet}"],
      ["hub.example.com", 8443, "/api/v1/hub/{slug}/holder/{wallet}"],
    ]);
  });

  it("a subclass's own call (no url template): no url.template, and its attempt span is named by the method alone", () => {
    const call = holderCall({ operation: "request", urlTemplate: undefined, path: "/custom/thing", wallet: undefined });
    const observer = start(call, { attemptSpans: true });
    observer.attempt!(new Request(`${BASE}/custom/thing`), 1)!(200, undefined);
    observer.end({ ...call, status: 200 });
    expect(one("public_hub.request").attributes).toStrictEqual({
      "http.request.method": "GET",
      "server.address": "hub.example.com",
      "server.port": 443,
      "public_hub.operation": "request",
      "public_hub.hub": "alpha",
      "public_hub.outcome": "success",
      "http.response.status_code": 200,
    });
    expect(clientSpans().map((span) => [span.name, span.attributes])).toStrictEqual([
      ["GET", { "http.request.method": "GET", "server.address": "hub.example.com", "server.port": 443, "http.response.status_code": 200 }],
    ]);
  });

  it("hands OpenTelemetry no undefined attribute value (invalid in the OTel spec): what a call lacks is left out", () => {
    // A tracer provider that notes every attribute the SDK passes, then hands it to the real one.
    const passed: Array<[string, unknown]> = [];
    const note = (attributes: Attributes | undefined) => passed.push(...Object.entries(attributes ?? {}));
    const recording: TracerProvider = {
      getTracer(name, version, options) {
        const tracer = provider.getTracer(name, version, options);
        const wrapped = Object.create(tracer) as Tracer;
        wrapped.startSpan = (spanName, spanOptions, context) => {
          note(spanOptions?.attributes);
          const span = tracer.startSpan(spanName, spanOptions, context);
          const setAttribute = span.setAttribute.bind(span);
          span.setAttribute = (key, value) => (passed.push([key, value]), setAttribute(key, value));
          const setAttributes = span.setAttributes.bind(span);
          span.setAttributes = (attributes) => (note(attributes), setAttributes(attributes));
          return span;
        };
        return wrapped;
      },
    };
    // No template, ref, wallet, status or verdict; an attempt that got no answer.
    const call = holderCall({ operation: "request", urlTemplate: undefined, wallet: undefined, ref: undefined });
    const observer = start(call, { tracerProvider: recording, recordWallets: true, attemptSpans: true });
    observer.attempt!(new Request(`${BASE}/custom/thing`), 1)!(undefined, new HubConnectionError({ message: "fetch failed", code: "ECONNRESET" }));
    observer.end({ ...call, attempts: 1 });
    expect(passed.length).toBeGreaterThan(0);
    expect(passed.filter(([, value]) => value === undefined)).toEqual([]);
    expect(Object.keys(one("public_hub.request").attributes).sort()).toEqual(["http.request.method", "public_hub.hub", "public_hub.operation", "public_hub.outcome", "server.address", "server.port"]);
  });
});

describe("openTelemetry(): wallets in what is recorded", () => {
  const message = (wallet: string) => `fetch failed: ${BASE}/hub/alpha/holder/${encodeURIComponent(wallet)} (holder ${wallet})`;

  it("off (the default), a wallet and its percent-encoded form become {wallet} in the exception, the status, the stack and a retry's reason", () => {
    const error = new HubConnectionError({ message: message(CAIP_WALLET), code: "ECONNRESET" });
    const call = holderCall({ wallet: CAIP_WALLET, path: `/hub/alpha/holder/${encodeURIComponent(CAIP_WALLET)}` });
    const observer = start(call);
    observer.retry!(`connect ECONNRESET for ${CAIP_WALLET}`, 250.4);
    observer.end({ ...call, attempts: 2, error });
    const span = one("public_hub.getHolder");
    const recorded = `fetch failed: ${BASE}/hub/alpha/holder/{wallet} (holder {wallet})`;
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: recorded });
    const exception = exceptionOf(span)!;
    expect(exception["exception.message"]).toBe(recorded);
    expect(exception["exception.type"]).toBe("HubConnectionError");
    expect(String(exception["exception.stacktrace"])).toContain(`HubConnectionError: ${recorded}\n`);
    expect(span.events.find((event) => event.name === "public_hub.retry")?.attributes).toStrictEqual({ "public_hub.retry.reason": "connect ECONNRESET for {wallet}", "public_hub.wait_ms": 250 });
    expect(JSON.stringify([span.attributes, span.events, span.status])).not.toContain(WALLET);
    expect(span.attributes["public_hub.wallet"]).toBeUndefined();
  });

  it("with recordWallets, the wallet is kept as it is: in the attribute, the exception and the status", () => {
    const error = new HubConnectionError({ message: message(CAIP_WALLET), code: "ECONNRESET" });
    const span = failed(error, { recordWallets: true }, { wallet: CAIP_WALLET });
    expect(span.attributes["public_hub.wallet"]).toBe(CAIP_WALLET);
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: message(CAIP_WALLET) });
    expect(exceptionOf(span)!["exception.message"]).toBe(message(CAIP_WALLET));
  });

  it("a call about no wallet records its message untouched, even one that says undefined", () => {
    const span = failed(new HubConnectionError({ message: "socket closed: undefined reply" }), {}, { wallet: undefined });
    expect(span.status.message).toBe("socket closed: undefined reply");
  });
});

describe("openTelemetry(): the exception recorded", () => {
  it("an error's stack is recorded, its message scrubbed in it", () => {
    const error = new HubConnectionError({ message: `no answer about ${WALLET}` });
    const span = failed(error);
    const stack = String(exceptionOf(span)!["exception.stacktrace"]);
    expect(stack.split("\n")[0]).toBe("HubConnectionError: no answer about {wallet}");
    expect(stack.split("\n").slice(1)).toEqual(error.stack!.split("\n").slice(1));
  });

  it("a thrown value with no stack: the exception without a stacktrace", () => {
    const error = { name: "UpstreamFailure", message: "the proxy gave up" };
    const span = failed(error);
    expect(exceptionOf(span)).toStrictEqual({ "exception.type": "UpstreamFailure", "exception.message": "the proxy gave up" });
    expect(span.attributes["error.type"]).toBe("UpstreamFailure");
  });
});

describe("openTelemetry(): error.type and the message of each kind of error", () => {
  it("a refusal with a code: error.type is the code, the message its class and status (never the server's words)", () => {
    const span = failed(apiError(400, "invalid_amount", BadRequestError));
    expect(span.attributes["error.type"]).toBe("invalid_amount");
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: "BadRequestError: HTTP 400" });
    expect(exceptionOf(span)!["exception.message"]).toBe("BadRequestError: HTTP 400");
  });

  it("a refusal whose code is empty or absent: error.type is its status", () => {
    failed(apiError(409, ""));
    const emptyCode = one("public_hub.getHolder");
    exporter.reset();
    failed(apiError(422, undefined));
    const noCode = one("public_hub.getHolder");
    expect([emptyCode, noCode].map((span) => [span.attributes["error.type"], span.status.message])).toEqual([
      ["409", "HubApiError: HTTP 409"],
      ["422", "HubApiError: HTTP 422"],
    ]);
  });

  it("an error whose status is not a number is not taken for a refusal", () => {
    const span = failed(Object.assign(new Error("the gateway said 503"), { name: "GatewayError", status: "503" }));
    expect(span.attributes["error.type"]).toBe("GatewayError");
    expect(span.status.message).toBe("the gateway said 503");
  });

  it("no answer: error.type is the class name, the message the error's own", () => {
    const span = failed(new HubTimeoutError({ timeout: 5000, origin: "https://hub.example.com" }));
    expect(span.attributes["error.type"]).toBe("HubTimeoutError");
    expect(span.status.message).toBe("Request to https://hub.example.com timed out after 5000 ms.");
  });

  it("an unusable answer: the problem is recorded, not the message that quotes the body", () => {
    const error = new HubResponseError({ status: 200, problem: "invalid-json", body: "<html>secret</html>", bodyExcerpt: "<html>secret</html>", detail: "<html>secret</html>" });
    const span = failed(error);
    expect(span.attributes["error.type"]).toBe("HubResponseError");
    expect(span.status.message).toBe("HubResponseError: invalid-json");
    expect(exceptionOf(span)!["exception.message"]).toBe("HubResponseError: invalid-json");
  });

  it("a thrown value with no name, or an empty one: error.type is _OTHER, on the span and the duration metric", async () => {
    const { provider: meterProvider, collect } = meters();
    const t = telemetry({ meterProvider });
    for (const error of [{ message: "a thrown object with no name" }, Object.assign(new Error("nameless"), { name: "" })]) t.startCall(holderCall())!.end({ ...holderCall(), error });
    const [thrown, nameless] = spans();
    expect([thrown!.attributes["error.type"], thrown!.status.message]).toEqual(["_OTHER", "a thrown object with no name"]);
    expect([nameless!.attributes["error.type"], nameless!.status.message]).toEqual(["_OTHER", "nameless"]);
    const duration = (await collect())["public_hub.client.operation.duration"] as HistogramMetricData;
    expect(duration.dataPoints.map((point) => [point.attributes, point.value.count])).toStrictEqual([[{ "public_hub.operation": "getHolder", "public_hub.outcome": "error", "error.type": "_OTHER" }, 2]]);
  });
});

describe("openTelemetry(): attempt spans", () => {
  const attempts = (options: OpenTelemetryOptions, outcomes: Array<[number | undefined, unknown]>) => {
    const call = holderCall();
    const observer = start(call, { attemptSpans: true, ...options });
    outcomes.forEach(([status, error], index) => observer.attempt!(new Request(`${BASE}/hub/alpha/holder/${WALLET}`), index + 1)!(status, error));
    observer.end({ ...call, attempts: outcomes.length, status: outcomes.at(-1)![0] });
    return clientSpans().map((span) => ({ name: span.name, status: span.status.code, attributes: span.attributes }));
  };
  const http = { "http.request.method": "GET", "server.address": "hub.example.com", "server.port": 443, "url.template": "/api/v1/hub/{slug}/holder/{wallet}" };

  it("no answer, a 503 without an error, a 400 and a 200: the status, the error.type and ERROR from 400 up", () => {
    expect(attempts({}, [[undefined, new HubTimeoutError({ timeout: 10 })], [503, undefined], [400, undefined], [200, undefined]])).toStrictEqual([
      { name: "GET /api/v1/hub/{slug}/holder/{wallet}", status: SpanStatusCode.ERROR, attributes: { ...http, "error.type": "HubTimeoutError" } },
      { name: "GET /api/v1/hub/{slug}/holder/{wallet}", status: SpanStatusCode.ERROR, attributes: { ...http, "http.request.resend_count": 1, "http.response.status_code": 503, "error.type": "503" } },
      { name: "GET /api/v1/hub/{slug}/holder/{wallet}", status: SpanStatusCode.ERROR, attributes: { ...http, "http.request.resend_count": 2, "http.response.status_code": 400, "error.type": "400" } },
      { name: "GET /api/v1/hub/{slug}/holder/{wallet}", status: SpanStatusCode.UNSET, attributes: { ...http, "http.request.resend_count": 3, "http.response.status_code": 200 } },
    ]);
  });

  it("url.full only with recordWallets", () => {
    const url = `${BASE}/hub/alpha/holder/${WALLET}`;
    expect(attempts({ recordWallets: true }, [[200, undefined]]).map((span) => span.attributes["url.full"])).toEqual([url]);
    exporter.reset();
    expect(Object.keys(attempts({}, [[200, undefined]])[0]!.attributes)).not.toContain("url.full");
  });
});

describe("openTelemetry(): trace context on attempts", () => {
  const send = (options: OpenTelemetryOptions, url = `${BASE}/hub`) => {
    const call = holderCall();
    const observer = start(call, options);
    const request = new Request(url);
    const ended = observer.attempt!(request, 1);
    ended?.(200, undefined);
    observer.end({ ...call, status: 200 });
    return { traceparent: request.headers.get("traceparent"), ended, call: one("public_hub.getHolder") };
  };

  it("propagateTraceContext false: no traceparent", () => {
    expect(send({ propagateTraceContext: false }).traceparent).toBeNull();
  });

  it("an origin list: a traceparent naming the call's span only to an origin on it", () => {
    expect(send({ propagateTraceContext: ["https://other.example.com"] }).traceparent).toBeNull();
    exporter.reset();
    const allowed = send({ propagateTraceContext: ["https://other.example.com", "https://hub.example.com"] });
    const { traceId, spanId } = allowed.call.spanContext();
    expect(allowed.traceparent).toBe(`00-${traceId}-${spanId}-01`);
  });

  it("a fetch wrapped by instrumentation-fetch (shimmer's __wrapped): no span or traceparent of ours", () => {
    vi.stubGlobal("fetch", Object.assign(async () => new Response(), { __wrapped: true }));
    const { traceparent, ended } = send({ attemptSpans: true });
    expect([traceparent, ended]).toEqual([null, undefined]);
    expect(clientSpans()).toEqual([]);
  });

  it("a subscriber to undici's request channel (instrumentation-undici): no span or traceparent of ours", () => {
    const listener = () => undefined;
    subscribe("undici:request:create", listener);
    try {
      const { traceparent, ended } = send({ attemptSpans: true });
      expect([traceparent, ended]).toEqual([null, undefined]);
      expect(clientSpans()).toEqual([]);
    } finally {
      unsubscribe("undici:request:create", listener);
    }
  });

  it("a runtime with no global fetch (the client given its own): attempts are traced", () => {
    vi.stubGlobal("fetch", undefined);
    const { traceparent, ended } = send({ attemptSpans: true });
    expect(ended).toBeTypeOf("function");
    const attempt = clientSpans();
    expect(attempt).toHaveLength(1);
    expect(traceparent).toBe(`00-${attempt[0]!.spanContext().traceId}-${attempt[0]!.spanContext().spanId}-01`);
  });
});

describe("openTelemetry(): metrics", () => {
  it("the meter is looked up once, at the first call's end", async () => {
    const { provider: meterProvider, collect } = meters();
    const getMeter = vi.spyOn(meterProvider, "getMeter");
    const t = openTelemetry({ tracerProvider: provider, meterProvider });
    const first = t.startCall(holderCall())!;
    expect(getMeter).not.toHaveBeenCalled();
    first.end({ ...holderCall(), status: 200 });
    const second = t.startCall(holderCall())!;
    second.retry!("503", 100);
    second.pause!(100);
    second.end({ ...holderCall(), attempts: 2, status: 200 });
    expect(getMeter.mock.calls).toEqual([["public-hub-sdk"]]);
    const duration = (await collect())["public_hub.client.operation.duration"] as HistogramMetricData;
    expect(duration.dataPoints.map((point) => point.value.count)).toEqual([2]);
  });

  it("the duration in seconds from the call's start to its end, in the semconv's buckets, with no error.type on a success", async () => {
    const { provider: meterProvider, collect } = meters();
    let now = 20_000;
    vi.spyOn(performance, "now").mockImplementation(() => now);
    const call = holderCall();
    const observer = start(call, { meterProvider });
    now += 1_500;
    observer.end({ ...call, status: 200 });
    const duration = (await collect())["public_hub.client.operation.duration"] as HistogramMetricData;
    expect(duration.descriptor).toMatchObject({ unit: "s", description: "Duration of the SDK's public calls, retries and waits included." });
    expect(duration.dataPoints).toHaveLength(1);
    const point = duration.dataPoints[0]!;
    expect(point.attributes).toStrictEqual({ "public_hub.operation": "getHolder", "public_hub.outcome": "success" });
    expect([point.value.count, point.value.sum, point.value.min, point.value.max]).toEqual([1, 1.5, 1.5, 1.5]);
    expect(point.value.buckets.boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    expect(point.value.buckets.counts[point.value.buckets.boundaries.indexOf(2.5)]).toBe(1);
  });

  const REASONS = [
    "503",
    "timeout",
    "connect ECONNREFUSED 127.0.0.1:8080",
    "40E8F6D1B07F0000:error:0A000086:SSL routines::certificate verify failed",
    "The operation was aborted due to timeout",
    "timeout of 5000ms exceeded",
  ];
  it("retries are counted by a bounded reason: the status, timeout, else network", async () => {
    const { provider: meterProvider, collect } = meters();
    const call = holderCall();
    const observer = start(call, { meterProvider });
    for (const reason of REASONS) observer.retry!(reason, 10);
    observer.end({ ...call, attempts: 7, status: 200 });
    const retries = (await collect())["public_hub.client.retries"]!;
    expect(retries.descriptor).toMatchObject({ unit: "{retry}", description: "Retries decided by the SDK." });
    const counts = Object.fromEntries(retries.dataPoints.map((point) => [String(point.attributes["public_hub.retry.reason"]), point.value]));
    expect(counts).toEqual({ "503": 1, timeout: 1, network: 4 });
    expect(retries.dataPoints.every((point) => point.attributes["public_hub.operation"] === "getHolder")).toBe(true);
    // The span keeps each reason (scrubbed), the metric only its kind.
    expect(one("public_hub.getHolder").events.map((event) => event.attributes!["public_hub.retry.reason"])).toEqual(REASONS);
  });

  it("a rate-gate pause: an event with its rounded wait, and the pauses counter", async () => {
    const { provider: meterProvider, collect } = meters();
    const call = holderCall();
    const observer = start(call, { meterProvider });
    observer.pause!(1234.6);
    observer.end({ ...call, status: 200 });
    expect(one("public_hub.getHolder").events.map((event) => [event.name, event.attributes])).toEqual([["public_hub.rate_gate.pause", { "public_hub.wait_ms": 1235 }]]);
    const pauses = (await collect())["public_hub.client.rate_gate.pauses"]!;
    expect(pauses.descriptor).toMatchObject({ unit: "{pause}", description: "Attempts held by the client's rate gate for a server's Retry-After." });
    expect(pauses.dataPoints.map((point) => [point.attributes, point.value])).toStrictEqual([[{ "public_hub.operation": "getHolder" }, 1]]);
  });
});

describe("openTelemetry(): a campaign's progress events", () => {
  const campaign = (progress: Array<Record<string, number | undefined>>) => {
    const call = holderCall({ operation: "awardMany", method: "POST", urlTemplate: "/hub/{slug}/bits/earn", wallet: undefined, path: "/hub/alpha/bits/earn" });
    const observer = start(call);
    for (const counts of progress) observer.progress!(counts);
    observer.end({ ...call, attempts: 0 });
    return one("public_hub.awardMany").events.filter((event) => event.name === "public_hub.campaign.progress").map((event) => event.attributes);
  };

  it("with a known total, about every tenth of it", () => {
    const events = campaign(Array.from({ length: 30 }, (_, index) => ({ done: index + 1, total: 100 })));
    expect(events.map((attributes) => attributes!["public_hub.campaign.done"])).toEqual([1, 11, 21]);
  });

  it("with no total, at 1, 2, 4, 8… done", () => {
    const events = campaign(Array.from({ length: 20 }, (_, index) => ({ done: index + 1 })));
    expect(events.map((attributes) => attributes!["public_hub.campaign.done"])).toEqual([1, 2, 4, 8, 16]);
  });

  it("holds the counts only: no rate, no elapsed time, nothing undefined", () => {
    const events = campaign([{ done: 1, total: undefined, applied: 1, duplicates: 0, failed: 0, inFlight: 2, rate: 3.5, elapsedMs: 120 }]);
    expect(events).toStrictEqual([{ "public_hub.campaign.done": 1, "public_hub.campaign.applied": 1, "public_hub.campaign.duplicates": 0, "public_hub.campaign.failed": 0, "public_hub.campaign.inFlight": 2 }]);
  });

  it("a thrown string is its own message (it read as \"undefined\")", () => {
    telemetry().startCall(holderCall())!.end({ ...holderCall(), error: "the queue is gone" });
    const [span] = spans();
    expect(span!.status.message).toBe("the queue is gone");
    expect(exceptionOf(span!)!["exception.message"]).toBe("the queue is gone");
  });
});
