/**
 * The trace of docs/observability.md: a backend route awards points; the hub's first answer is
 * lost (the connection drops after the request arrived), the SDK retries, the second attempt is
 * applied. Real OpenTelemetry Node SDK, undici auto-instrumentation, a loopback hub; the spans are
 * printed as a waterfall, and written as an HTML page when a path is given.
 *
 *   npx tsx examples/observability/retried-award-trace.ts [waterfall.html]
 */
// @ts-nocheck

import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import { registerInstrumentations } from "@opentelemetry/instrumentation";
import { UndiciInstrumentation } from "@opentelemetry/instrumentation-undici";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { HubServerClient } from "public-hub-sdk/server";
import { openTelemetry } from "public-hub-sdk/otel";

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
provider.register();
registerInstrumentations({ instrumentations: [new UndiciInstrumentation()] });

// A hub whose first answer to the award is lost.
let attempts = 0;
const hub = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (++attempts === 1) return req.socket.destroy();
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true, awarded: 10, duplicate: false }));
  });
});
await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(hub.address() as AddressInfo).port}/api/v1`;

const server = new HubServerClient({ baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha", retry: { backoff: 200 }, logLevel: "off", telemetry: openTelemetry() });
await trace.getTracer("quest-service").startActiveSpan("POST /quests/:id/complete", async (span) => {
  await server.awardPoints({ wallet: "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89", amount: 10, reason: "quest complete", ref: "quest-42:0x5e5b" });
  span.end();
});
hub.close();

// The waterfall: each span under its parent, its offset and length on a common time line.
const spans = exporter.getFinishedSpans();
const ms = (time: [number, number]) => time[0] * 1e3 + time[1] / 1e6;
const start = Math.min(...spans.map((span) => ms(span.startTime)));
const end = Math.max(...spans.map((span) => ms(span.endTime)));
const rows: { span: ReadableSpan; depth: number }[] = [];
const walk = (parent: string | undefined, depth: number) => {
  for (const span of spans.filter((s) => s.parentSpanContext?.spanId === parent).sort((a, b) => ms(a.startTime) - ms(b.startTime))) {
    rows.push({ span, depth });
    walk(span.spanContext().spanId, depth + 1);
  }
};
walk(undefined, 0);
const shown = (span: ReadableSpan) => Object.entries(span.attributes).filter(([key]) => !key.startsWith("network.") && key !== "user_agent.original" && key !== "http.request.method_original" && key !== "url.scheme");
const width = 48;
for (const { span, depth } of rows) {
  const from = Math.round(((ms(span.startTime) - start) / (end - start)) * width);
  const to = Math.max(from + 1, Math.round(((ms(span.endTime) - start) / (end - start)) * width));
  const bar = " ".repeat(from) + "█".repeat(to - from) + " ".repeat(width - to);
  const status = span.status.code === 2 ? " ERROR" : "";
  console.log(`${`${"  ".repeat(depth)}${span.name}`.padEnd(40)} |${bar}| ${(ms(span.endTime) - ms(span.startTime)).toFixed(1).padStart(6)} ms${status}`);
  for (const event of span.events) console.log(`${"  ".repeat(depth + 2)}· ${event.name} ${JSON.stringify(event.attributes)}`);
}
console.log();
for (const { span } of rows) console.log(`${span.name}: ${shown(span).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join(" ")}`);

const out = process.argv[2];
if (out) {
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const bars = rows.map(({ span, depth }) => {
    const left = ((ms(span.startTime) - start) / (end - start)) * 100;
    const length = Math.max(0.4, ((ms(span.endTime) - ms(span.startTime)) / (end - start)) * 100);
    const error = span.status.code === 2 || span.attributes["error.type"] !== undefined;
    const marks = span.events.map((event) => `<i title="${escape(event.name)}" style="left:${((ms(event.time) - start) / (end - start)) * 100}%"></i>`).join("");
    const detail = shown(span).map(([key, value]) => `${key}=${escape(String(value))}`).join(" · ");
    return `<div class="row"><div class="name" style="padding-left:${depth * 18 + 8}px">${escape(span.name)}<small>${detail}</small></div><div class="lane"><b class="${error ? "error" : ""} ${span.kind === 2 ? "client" : ""}" style="left:${left}%;width:${length}%"></b>${marks}<span style="left:calc(${left + length}% + 6px)">${(ms(span.endTime) - ms(span.startTime)).toFixed(1)} ms</span></div></div>`;
  });
  writeFileSync(out, `<!doctype html><meta charset="utf-8"><title>trace</title><style>
body{font:13px system-ui,sans-serif;margin:16px;background:#fff;color:#222;width:1250px}
h1{font-size:15px;margin:0 0 10px}.row{display:flex;border-top:1px solid #eee;min-height:44px;align-items:center}
.name{width:520px;font-weight:600;font-family:ui-monospace,monospace}.name small{display:block;font-weight:400;color:#666;font-size:11px;white-space:normal}
.lane{position:relative;flex:1;height:22px;margin-right:80px}.lane b{position:absolute;top:4px;height:14px;background:#4e79a7;border-radius:2px}
.lane b.client{background:#59a14f}.lane b.error{background:#e15759}.lane i{position:absolute;top:0;width:3px;height:22px;background:#f28e2b}
.lane span{position:absolute;top:3px;font-size:11px;color:#444;white-space:nowrap}
</style><h1>Trace ${spans[0]!.spanContext().traceId}: an award retried after a lost answer (orange: span events)</h1>${bars.join("")}`);
}
await provider.shutdown();
