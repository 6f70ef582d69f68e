// Issue 26: what telemetry costs. Side by side in one run, against the loopback bench server:
// - telemetry off: CPU per read of this build ÷ the baseline's (a build of `BENCH_BASELINE_REF`,
//   default `main`, made here from `git archive` into .tmp/), goal ≤ 1.02×; the same for the
//   root entry's cold start (whole processes, interleaved);
// - OpenTelemetry on (a registered NodeTracerProvider, a BatchSpanProcessor with an exporter that
//   drops everything, a MeterProvider): CPU per read ÷ telemetry off, goal ≤ 1.15×.
// CPU is this process's user + system time (the server runs in its own process); in each round the
// variants take turns in small batches; the ratio is the median of per-round ratios. Set
// BENCH_BASELINE_REF to the commit a change started from (after a merge, `main` is the change).
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MeterProvider } from "@opentelemetry/sdk-metrics";
import { BatchSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { NodeTracerProvider } from "@opentelemetry/sdk-trace-node";
import { runOnce } from "./cold-start.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BASELINE = fileURLToPath(new URL("../.tmp/bench-baseline/", import.meta.url));
const WALLET = "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const range = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;

/** The baseline's dist, built from the git ref into .tmp (inside the repository: its imports resolve to our node_modules). */
function buildBaseline(ref) {
  rmSync(BASELINE, { recursive: true, force: true });
  mkdirSync(BASELINE, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${ref} | tar -x -C "${BASELINE}"`], { cwd: ROOT });
  execFileSync("npx", ["tsup", "--no-dts", "--silent"], { cwd: BASELINE, stdio: "ignore" });
  return execFileSync("git", ["rev-parse", "--short", ref], { cwd: ROOT, encoding: "utf8" }).trim();
}

/** An exporter that drops every span: the SDK's and OpenTelemetry's work stays, no I/O. */
const dropAll = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined };

/**
 * CPU microseconds per call of each variant, per round. Within a round the variants take turns
 * in batches of 20 calls until each has had `ms` of wall time, so that a neighbour loading this
 * shared machine for a while loads every variant alike.
 */
async function cpuPerCall(variants, { rounds, ms }) {
  const names = Object.keys(variants);
  const perRound = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) for (let i = 0; i < 200; i++) await variants[name](); // warm-up: JIT, connections
  for (let round = 0; round < rounds; round++) {
    const used = Object.fromEntries(names.map((name) => [name, { cpu: 0, wall: 0, calls: 0 }]));
    while (names.some((name) => used[name].wall < ms)) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const started = performance.now();
        const cpu = process.cpuUsage();
        for (let i = 0; i < 20; i++) await variants[name]();
        const spent = process.cpuUsage(cpu);
        used[name].cpu += spent.user + spent.system;
        used[name].wall += performance.now() - started;
        used[name].calls += 20;
      }
    }
    for (const name of names) perRound[name].push(used[name].cpu / used[name].calls);
  }
  return perRound;
}

/**
 * Instructions per read under callgrind (canned fetch; deterministic, whatever the machine does):
 * (I(N2) − I(N1)) / (N2 − N1), which cancels start-up. Full mode only, and only with valgrind.
 */
async function instructionsPerRead(variants) {
  const valgrind = await promisify(execFile)("valgrind", ["--version"]).catch(() => undefined);
  if (!valgrind) return undefined;
  const count = async (variant, n) => {
    const worker = fileURLToPath(new URL("./telemetry-instructions-worker.mjs", import.meta.url));
    const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", worker, variant, String(n), BASELINE];
    const { stderr } = await promisify(execFile)("valgrind", args, { cwd: ROOT, maxBuffer: 1 << 24 });
    return Number(/Collected : (\d+)/.exec(stderr)[1]);
  };
  const [n1, n2] = [1_000, 4_000];
  const result = {};
  for (const variant of variants) result[variant] = ((await count(variant, n2)) - (await count(variant, n1))) / (n2 - n1);
  return result;
}

export async function telemetrySection({ baseUrl, smoke }) {
  const ref = process.env.BENCH_BASELINE_REF ?? "main";
  const commit = buildBaseline(ref);
  const { HubClient } = await import(pathToFileURL(`${ROOT}dist/index.js`).href);
  const { openTelemetry } = await import(pathToFileURL(`${ROOT}dist/otel/index.js`).href);
  const baseline = await import(pathToFileURL(`${BASELINE}dist/index.js`).href);
  const tracerProvider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropAll)] });
  tracerProvider.register();
  const meterProvider = new MeterProvider();
  const options = { baseUrl, clientId: "pk_bench", hub: "alpha", logLevel: "off" };
  const clients = {
    baseline: new baseline.HubClient(options),
    off: new HubClient(options),
    otel: new HubClient({ ...options, telemetry: openTelemetry({ tracerProvider, meterProvider }) }),
  };
  const reads = Object.fromEntries(Object.entries(clients).map(([name, client]) => [name, () => client.getHolder(WALLET)]));
  const rounds = smoke ? 2 : 9;
  const cpu = await cpuPerCall(reads, { rounds, ms: smoke ? 100 : 600 });
  await tracerProvider.shutdown();
  const ratio = (a, b) => cpu[a].map((value, i) => value / cpu[b][i]);
  const offRatio = ratio("off", "baseline");
  const otelRatio = ratio("otel", "off");

  // Cold start of the root entry, this build and the baseline's, in alternating order.
  const sets = smoke ? 3 : 30;
  const script = (dir) => `await import(${JSON.stringify(pathToFileURL(`${dir}dist/index.js`).href)});`;
  const cold = { off: [], baseline: [] };
  await runOnce(script(ROOT));
  await runOnce(script(BASELINE));
  for (let set = 0; set < sets; set++) {
    const pair = set % 2 === 0 ? ["off", "baseline"] : ["baseline", "off"];
    for (const name of pair) cold[name].push((await runOnce(script(name === "off" ? ROOT : BASELINE))).cpu);
  }
  const coldRatio = cold.off.map((value, i) => value / cold.baseline[i]);
  const verdict = (value, goal) => `≤ ${goal}× ${value <= goal ? "✅" : "❌"}`;

  const instructions = smoke ? undefined : await instructionsPerRead(["baseline", "off", "otel"]);
  const us = (name) => median(cpu[name]).toFixed(0);
  const count = (name) => Math.round(instructions[name]).toLocaleString("en");
  const instructionRows = instructions
    ? [
        `| telemetry off, instructions per read (callgrind, canned fetch) | this build ${count("off")} | baseline ${count("baseline")} | **${(instructions.off / instructions.baseline).toFixed(3)}×** (callgrind) | ${verdict(instructions.off / instructions.baseline, 1.02)} |`,
        `| \`openTelemetry()\` on, instructions per read (callgrind, canned fetch: no network, so the share is the largest it can be) | on ${count("otel")} | off ${count("off")} | **${(instructions.otel / instructions.off).toFixed(3)}×** (callgrind) | — |`,
      ]
    : [];
  return [
    `### Telemetry (issue 26): getHolder at c=1 over keep-alive loopback, ${rounds} rounds × ${smoke ? 100 : 600} ms per variant, taking turns in batches of 20 calls; baseline = \`${ref}\` (${commit}) built in .tmp${smoke ? " (smoke: not a measurement)" : ""}`,
    "",
    "| what | measured | in the same run | ratio, median (min–max) | goal |",
    "|---|---|---|---|---|",
    `| telemetry off, client CPU per read | this build ${us("off")} µs | baseline ${us("baseline")} µs | **${median(offRatio).toFixed(3)}×** (${range(offRatio)}) | ${verdict(median(offRatio), 1.02)} |`,
    `| telemetry off, cold start \`import("public-hub-sdk")\` (CPU, ${sets} interleaved pairs) | this build ${median(cold.off).toFixed(1)} ms | baseline ${median(cold.baseline).toFixed(1)} ms | **${median(coldRatio).toFixed(3)}×** (${range(coldRatio)}) | ${verdict(median(coldRatio), 1.02)} |`,
    `| \`openTelemetry()\` on (NodeTracerProvider, batch processor, dropping exporter), client CPU per read | on ${us("otel")} µs | off ${us("off")} µs | **${median(otelRatio).toFixed(3)}×** (${range(otelRatio)}) | ${verdict(median(otelRatio), 1.15)} |`,
    ...instructionRows,
  ];
}

// `node bench/telemetry.mjs [--smoke]`: this table alone (needs `npm run build` first).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { fork } = await import("node:child_process");
  const child = fork(new URL("./server.mjs", import.meta.url), { stdio: "inherit" });
  const { port } = await new Promise((resolve) => child.once("message", resolve));
  try {
    console.log((await telemetrySection({ baseUrl: `http://127.0.0.1:${port}/api/v1`, smoke: process.argv.includes("--smoke") })).join("\n"));
  } finally {
    child.kill();
  }
}
