import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ForbiddenError, HubAbortError, HubClient, HubResponseError } from "public-hub-sdk";
import { openTelemetry, type OpenTelemetryOptions } from "public-hub-sdk/otel";
import { rawSign } from "../helpers/raw-sign";
import { SECRET, SIGNING_KEY, serverClient } from "../helpers/server-client";
import { meters } from "../helpers/otel-meters";

// The real OpenTelemetry Node SDK: a registered tracer provider (AsyncLocalStorage context,
// W3C propagator), the undici auto-instrumentation, and in-memory exporters.
const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
const undici = new UndiciInstrumentation();
registerInstrumentations({ instrumentations: [undici], tracerProvider: provider });
const meterProvider = meters().provider;

const WALLET = "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89";
const CLIENT_ID = "pk_alpha_demo";
const award = { wallet: WALLET, amount: 10, reason: "quest complete", ref: "quest-42:0x5e5b" };
/** In every body the server sends: no span may hold it. */
const BODY_MARKER = "body-text-7f3a";

/** What the loopback server does with the next requests: answer (a status; a 429 says `Retry-After: 1`), or drop the connection after reading the request (a lost answer). */
type Step = number | "drop";
interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let script: Step[] = [];
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk));
    req.on("end", () => {
      received.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const step = script.shift() ?? 200;
      if (step === "drop") return req.socket.destroy();
      const answer = step !== 200 ? { error: `refused ${BODY_MARKER}` } : req.method === "POST" ? { ok: true, ref: award.ref, awarded: 10, note: BODY_MARKER } : { wallet: WALLET, balance: 10, note: BODY_MARKER };
      res.writeHead(step, { "content-type": "application/json", ...(step === 429 && { "retry-after": "1" }) }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await provider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => {
  undici.enable();
  received.length = 0;
  script = [];
  exporter.reset();
});
afterEach(() => vi.unstubAllGlobals());

const telemetry = (options: OpenTelemetryOptions = {}) => openTelemetry({ meterProvider, ...options });
const reads = (options: Partial<ConstructorParameters<typeof HubClient>[0]> = {}) => new HubClient({ baseUrl, clientId: CLIENT_ID, hub: "alpha", retry: { backoff: 1 }, logLevel: "off", telemetry: telemetry(), ...options });
const writes = (options = {}) => serverClient(baseUrl, { telemetry: telemetry(), ...options });
const spans = () => exporter.getFinishedSpans();
const named = (name: string) => spans().filter((span) => span.name === name);
const one = (name: string) => {
  const found = named(name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
/** The W3C traceparent's trace id and parent span id. */
const traceparent = (headers: IncomingHttpHeaders) => {
  const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(String(headers.traceparent));
  expect(match, `traceparent ${headers.traceparent}`).not.toBeNull();
  return { traceId: match![1], parentId: match![2] };
};

describe("openTelemetry(): spans", () => {
  it("one span per read, parent of the undici HTTP span, whose traceparent the server receives", async () => {
    await reads().getHolder(WALLET);
    const call = one("public_hub.getHolder");
    const http = one("GET");
    expect(call.kind).toBe(SpanKind.INTERNAL);
    expect(http.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(http)).toBe(call.spanContext().spanId);
    expect(http.spanContext().traceId).toBe(call.spanContext().traceId);
    // The server got the undici span's context: one traceparent of the SDK's trace.
    expect(received).toHaveLength(1);
    expect(traceparent(received[0]!.headers)).toEqual({ traceId: call.spanContext().traceId, parentId: http.spanContext().spanId });
    const port = Number(new URL(baseUrl).port);
    expect(call.attributes).toEqual({
      "http.request.method": "GET",
      "server.address": "127.0.0.1",
      "server.port": port,
      "url.template": "/api/v1/hub/{slug}/holder/{wallet}",
      "public_hub.operation": "getHolder",
      "public_hub.hub": "alpha",
      "public_hub.outcome": "success",
      "http.response.status_code": 200,
    });
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
  });

  it("a span the caller has open is the parent of the SDK's span", async () => {
    const tracer = provider.getTracer("app");
    await tracer.startActiveSpan("handle request", async (span) => {
      await reads().getHub();
      span.end();
    });
    expect(parentOf(one("public_hub.getHub"))).toBe(one("handle request").spanContext().spanId);
  });

  it("an award retried after a lost answer: one span, resend count, retry event, each attempt's HTTP span its child, the signature still verifies", async () => {
    script = ["drop", 200];
    await writes().awardPoints(award);
    const call = one("public_hub.awardPoints");
    expect(call.attributes).toMatchObject({ "http.request.method": "POST", "url.template": "/api/v1/hub/{slug}/bits/earn", "public_hub.ref": award.ref, "http.request.resend_count": 1, "http.response.status_code": 200, "public_hub.outcome": "success" });
    const retries = call.events.filter((event) => event.name === "public_hub.retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]!.attributes).toMatchObject({ "public_hub.retry.reason": expect.any(String), "public_hub.wait_ms": expect.any(Number) });
    const attempts = named("POST");
    expect(attempts).toHaveLength(2);
    expect(attempts.every((http) => parentOf(http) === call.spanContext().spanId)).toBe(true);
    expect(received).toHaveLength(2);
    // Each attempt carried its own HTTP span's context, in the SDK's trace.
    expect(received.map((request) => traceparent(request.headers)).sort((a, b) => a.parentId!.localeCompare(b.parentId!))).toEqual(
      attempts.map((http) => ({ traceId: call.spanContext().traceId, parentId: http.spanContext().spanId })).sort((a, b) => a.parentId.localeCompare(b.parentId)),
    );
    for (const request of received) {
      // Checked with the test's own signer over what arrived: the traceparent is outside the signed payload.
      expect(request.headers["x-api-signature"]).toBe(rawSign(SECRET, String(request.headers["x-api-timestamp"]), "POST", request.path, request.body));
    }
  });

  it("a 403 is an ERROR span with the exception recorded, the status and the verdict", async () => {
    script = [403];
    await expect(writes().awardPoints(award)).rejects.toBeInstanceOf(ForbiddenError);
    const call = one("public_hub.awardPoints");
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({ "error.type": "403", "http.response.status_code": 403, "public_hub.may_have_been_applied": false, "public_hub.outcome": "error" });
    const exception = call.events.find((event) => event.name === "exception");
    expect(exception?.attributes).toMatchObject({ "exception.type": "ForbiddenError", "exception.message": expect.stringContaining("403") });
  });

  it("a write whose answer was lost on every attempt is an ERROR that may have been applied", async () => {
    script = ["drop", "drop", "drop"];
    await expect(writes().awardPoints(award)).rejects.toMatchObject({ mayHaveBeenApplied: true });
    const call = one("public_hub.awardPoints");
    expect(call.status.code).toBe(SpanStatusCode.ERROR);
    expect(call.attributes).toMatchObject({ "error.type": "HubConnectionError", "public_hub.may_have_been_applied": true, "http.request.resend_count": 2 });
  });

  it("an abort by the caller is not an error", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(reads().getHub({ signal: controller.signal })).rejects.toBeInstanceOf(HubAbortError);
    const call = one("public_hub.getHub");
    expect(call.status.code).toBe(SpanStatusCode.UNSET);
    expect(call.attributes["public_hub.outcome"]).toBe("aborted");
    expect(call.attributes["error.type"]).toBeUndefined();
    expect(call.events.find((event) => event.name === "exception")).toBeUndefined();
  });

  it("records nothing secret: no key, secret, signing key, signature, body or wallet in any attribute, event, exception or status", async () => {
    script = ["drop", 503, 200];
    await writes().awardPoints(award);
    script = [404];
    await expect(reads().getHolder(WALLET)).rejects.toThrow();
    // An unusable answer (the schema refuses the body) records its problem, not the body.
    await expect(reads().getHolder(WALLET, { schema: z.object({ missing: z.string() }) })).rejects.toBeInstanceOf(HubResponseError);
    expect(named("public_hub.getHolder").at(-1)!.attributes).toMatchObject({ "error.type": "HubSchemaError", "http.response.status_code": 200 });
    const recorded = JSON.stringify(spans().filter((span) => span.name.startsWith("public_hub.")).map((span) => [span.name, span.attributes, span.events, span.status]));
    const signatures = received.map((request) => String(request.headers["x-api-signature"])).filter((s) => s !== "undefined");
    expect(signatures.length).toBeGreaterThan(0);
    for (const secret of [CLIENT_ID, SECRET, SIGNING_KEY, JSON.stringify(award), award.reason, WALLET, BODY_MARKER, ...signatures]) expect(recorded).not.toContain(secret);
    // The headers the SDK adds are trace context only.
    expect(Object.keys(received.at(-1)!.headers).filter((name) => /trace|baggage/.test(name))).toEqual(["traceparent"]);
  });

  it("a call held by the rate gate's Retry-After pause shows it as an event, and counts it", async () => {
    const { provider: meterProvider, collect } = meters();
    script = [429, 200, 200];
    let second: Promise<unknown> | undefined;
    // The second call starts once the first got its 429: the gate holds it until the pause ends.
    const client = reads({
      telemetry: openTelemetry({ meterProvider }),
      onRequest: (event) => void (event.type === "response" && event.status === 429 && (second = client.getLeaderboard())),
    });
    await client.getHub();
    await second;
    const held = one("public_hub.getLeaderboard").events.filter((event) => event.name === "public_hub.rate_gate.pause");
    expect(held).toHaveLength(1);
    expect(held[0]!.attributes!["public_hub.wait_ms"]).toBeGreaterThan(0);
    expect(one("public_hub.getHub").events.map((event) => [event.name, event.attributes!["public_hub.retry.reason"]])).toEqual([["public_hub.retry", "429"]]);
    const pauses = (await collect())["public_hub.client.rate_gate.pauses"]!;
    expect(pauses.dataPoints.map((point) => [point.attributes, point.value])).toEqual([[{ "public_hub.operation": "getLeaderboard" }, 1]]);
  });

  it("records the wallet only when asked to", async () => {
    await reads({ telemetry: telemetry({ recordWallets: true }) }).getHolder(WALLET);
    expect(one("public_hub.getHolder").attributes["public_hub.wallet"]).toBe(WALLET);
  });

  it("a campaign is one span with progress events; its awards are its children", async () => {
    const summary = await writes().awardMany([award, { ...award, ref: "quest-43:0x5e5b" }, { ...award, ref: "quest-44:0x5e5b" }]);
    expect(summary.applied).toBe(3);
    const campaign = one("public_hub.awardMany");
    expect(campaign.attributes).toMatchObject({ "http.request.method": "POST", "url.template": "/api/v1/hub/{slug}/bits/earn", "public_hub.hub": "alpha" });
    const awards = named("public_hub.awardPoints");
    expect(awards).toHaveLength(3);
    expect(awards.every((span) => parentOf(span) === campaign.spanContext().spanId)).toBe(true);
    const progress = campaign.events.filter((event) => event.name === "public_hub.campaign.progress");
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)!.attributes).toMatchObject({ "public_hub.campaign.done": 3, "public_hub.campaign.applied": 3, "public_hub.campaign.total": 3 });
  });
});

describe("openTelemetry(): where no auto-instrumentation exists", () => {
  beforeEach(() => undici.disable());

  it("with attemptSpans, a CLIENT span per attempt, child of the call's span, whose context the server receives", async () => {
    script = [503, 200];
    await reads({ telemetry: telemetry({ attemptSpans: true }) }).getHolder(WALLET);
    const call = one("public_hub.getHolder");
    const attempts = spans().filter((span) => span.kind === SpanKind.CLIENT);
    expect(attempts.map((span) => span.name)).toEqual(["GET /api/v1/hub/{slug}/holder/{wallet}", "GET /api/v1/hub/{slug}/holder/{wallet}"]);
    expect(attempts.map((span) => [span.attributes["http.response.status_code"], span.attributes["http.request.resend_count"], span.status.code])).toEqual([
      [503, undefined, SpanStatusCode.ERROR],
      [200, 1, SpanStatusCode.UNSET],
    ]);
    expect(attempts.every((span) => parentOf(span) === call.spanContext().spanId)).toBe(true);
    expect(received.map((request) => traceparent(request.headers))).toEqual(attempts.map((span) => ({ traceId: call.spanContext().traceId, parentId: span.spanContext().spanId })));
  });

  it("by default, no attempt span: the traceparent names the call's span", async () => {
    await reads().getHub();
    const call = one("public_hub.getHub");
    expect(spans()).toHaveLength(1);
    expect(traceparent(received[0]!.headers)).toEqual({ traceId: call.spanContext().traceId, parentId: call.spanContext().spanId });
  });

  it("in a browser, no traceparent unless the API's origin is allowed", async () => {
    vi.stubGlobal("document", {});
    await reads().getHub();
    expect(received[0]!.headers.traceparent).toBeUndefined();
    await reads({ telemetry: telemetry({ propagateTraceContext: [new URL(baseUrl).origin] }) }).getHub();
    expect(received[1]!.headers.traceparent).toBeDefined();
  });

  it("with no telemetry option: no span and no traceparent", async () => {
    await new HubClient({ baseUrl, clientId: CLIENT_ID, hub: "alpha", logLevel: "off" }).getHub();
    await serverClient(baseUrl).awardPoints(award);
    expect(spans()).toEqual([]);
    expect(received.map((request) => request.headers.traceparent)).toEqual([undefined, undefined]);
  });
});

describe("openTelemetry(): metrics", () => {
  it("the duration by operation and outcome, retries and rate-gate pauses; no hub or ref", async () => {
    const { provider: meterProvider, collect } = meters();
    const client = writes({ telemetry: openTelemetry({ meterProvider }) });
    script = [503, 200, 403];
    await client.awardPoints(award);
    await expect(client.awardPoints({ ...award, ref: "quest-43:0x5e5b" })).rejects.toBeInstanceOf(ForbiddenError);
    const metrics = await collect();
    const duration = metrics["public_hub.client.operation.duration"]!;
    expect(duration.descriptor.unit).toBe("s");
    const points = duration.dataPoints.map((point) => point.attributes);
    expect(points).toEqual(expect.arrayContaining([
      { "public_hub.operation": "awardPoints", "public_hub.outcome": "success" },
      { "public_hub.operation": "awardPoints", "public_hub.outcome": "error", "error.type": "403" },
    ]));
    expect(metrics["public_hub.client.retries"]!.dataPoints.map((point) => [point.attributes, point.value])).toEqual([[{ "public_hub.operation": "awardPoints", "public_hub.retry.reason": "503" }, 1]]);
    expect(metrics["public_hub.client.rate_gate.pauses"]).toBeUndefined(); // no Retry-After in this run
    const every = JSON.stringify(Object.values(metrics).map((metric) => metric.dataPoints.map((point) => point.attributes)));
    for (const unbounded of ["alpha", award.ref, WALLET]) expect(every).not.toContain(unbounded);
  });
});
