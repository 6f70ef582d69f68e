// Runs N reads for `valgrind --tool=callgrind` (see telemetry.mjs): `getHolder` on a canned
// `fetch` (each client's own work, without the network or the machine's load), in one variant:
// the baseline build, this build without telemetry, or this build with `openTelemetry()` on a
// registered NodeTracerProvider (batch processor, an exporter that drops everything).
import { pathToFileURL } from "node:url";

const [variant, count, baselineDir] = [process.argv[2], Number(process.argv[3]), process.argv[4]];
const dist = variant === "baseline" ? `${baselineDir}dist/` : new URL("../dist/", import.meta.url).href.replace("file://", "");
const { HubClient } = await import(pathToFileURL(`${dist}index.js`).href);
let telemetry;
if (variant === "otel") {
  const { openTelemetry } = await import(pathToFileURL(`${dist}otel/index.js`).href);
  const { NodeTracerProvider } = await import("@opentelemetry/sdk-trace-node");
  const { BatchSpanProcessor } = await import("@opentelemetry/sdk-trace-base");
  const { MeterProvider } = await import("@opentelemetry/sdk-metrics");
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor({ export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined })] });
  tracerProvider.register();
  telemetry = openTelemetry({ tracerProvider, meterProvider: new MeterProvider() });
}
const body = JSON.stringify({ hub: "alpha", wallet: "0x1", holder: true, tokens: 3 });
const fetch = async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
const sdk = new HubClient({ baseUrl: "http://127.0.0.1:9/api/v1", clientId: "pk_bench", hub: "alpha", fetch, ...(telemetry && { telemetry }) });
let n = 0; // every read asks for another wallet: nothing is shared
for (let i = 0; i < count; i++) await sdk.getHolder(`0x${n++}`);
process.exit(0); // the batch processor's timer would keep the process alive
