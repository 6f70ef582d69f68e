// `npm run bench`: the SDK against hand-written fetch + node:crypto, side by side in one run.
// Each comparison runs R rounds; in each round both tasks run for the same time, in alternating
// order, and the round's ratio SDK/baseline is taken. The table shows the median ratio and its
// spread (min–max over rounds). `--smoke` runs a few short rounds only, to keep the bench working.
import { execFile, fork } from "node:child_process";
import { createHash, webcrypto } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { Bench } from "tinybench";
import * as z from "zod";
import { HubClient } from "../dist/index.js";
import { signRequest } from "../dist/server/index.js";
import { campaignSection } from "./campaign.mjs";
import { coldStartSection } from "./cold-start.mjs";
import { peerSection } from "./peers.mjs";
import { rateLimitSection } from "./rate-limit.mjs";
import { BROWSER_BUDGET_BYTES, BROWSER_CEILING_BYTES } from "./bundle-budget.mjs";
import { telemetrySection } from "./telemetry.mjs";

const SMOKE = process.argv.includes("--smoke");
const ROUNDS = SMOKE ? 2 : 9;
const TIME_MS = SMOKE ? 60 : 400;
const MEMORY_READS = SMOKE ? { step: 500, steps: 4 } : { step: 10_000, steps: 10 };

const SECRET = "bench-secret";
const KEY = createHash("sha256").update(SECRET).digest("hex");
const PATH = "/api/v1/hub/alpha/bits/earn";
const BODY = JSON.stringify({ wallet: "0x5e5bd2a4c89737010ede2ecf8bca2388637e5e89", amount: 797141, reason: "quest complete", ref: "quest-42:0x5e5bd2a4c8" });

// A holder answer and the small zod object that validates it (the schema-cost rows).
const HOLDER_BODY = JSON.stringify({ hub: "alpha", wallet: "0xabc", holder: true, tokens: 3, bits: 250 });
const HOLDER_SCHEMA = z.object({ hub: z.string(), wallet: z.string(), holder: z.boolean(), tokens: z.number(), bits: z.number() });

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));

/** Runs both tasks for ROUNDS rounds, alternating their order; returns the per-round ratios. */
async function compare({ sdk, baseline, concurrency = 1 }) {
  // Concurrency n: each iteration is n requests in parallel, so ops/s × n is requests/s.
  const parallel = (fn) => (concurrency > 1 ? () => Promise.all(Array.from({ length: concurrency }, fn)) : fn);
  const ratios = [];
  const hz = { sdk: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++) {
    const bench = new Bench({
      time: TIME_MS,
      warmupTime: round === 0 ? TIME_MS : 50,
    });
    const tasks = [["sdk", parallel(sdk)], ["baseline", parallel(baseline)]];
    if (round % 2 === 1) tasks.reverse();
    for (const [name, fn] of tasks) bench.add(name, fn);
    await bench.run();
    const result = (name) => {
      const task = bench.getTask(name).result;
      if (task.state !== "completed") throw new Error(`${name}: ${task.state} ${task.error ?? ""}`);
      return task.throughput.p50 * concurrency; // the median: robust to GC pauses and neighbours
    };
    hz.sdk.push(result("sdk"));
    hz.baseline.push(result("baseline"));
    ratios.push(hz.sdk.at(-1) / hz.baseline.at(-1));
  }
  return { ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios), sdk: median(hz.sdk), baseline: median(hz.baseline) };
}

function row(what, sdkName, baseName, goal, r) {
  const verdict = goal === undefined ? "(informative)" : `≥ ${goal}× ${r.ratio >= goal ? "✅" : "❌"}`;
  return `| ${what} | ${sdkName}: ${fmt(r.sdk)}/s | ${baseName}: ${fmt(r.baseline)}/s | **${r.ratio.toFixed(2)}×** (${r.min.toFixed(2)}–${r.max.toFixed(2)}) | ${verdict} |`;
}

async function startServer() {
  const child = fork(new URL("./server.mjs", import.meta.url), { stdio: "inherit" });
  const { port } = await new Promise((resolve) => child.once("message", resolve));
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, stop: () => child.kill() };
}

async function bundleRows() {
  const size = async (contents, options = {}) => {
    const out = await esbuild.build({ stdin: { contents, resolveDir: new URL("..", import.meta.url).pathname }, bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "error", tsconfigRaw: {}, ...options });
    return gzipSync(out.outputFiles[0].text, { level: 9 }).length / 1024;
  };
  const root = await size('import { HubClient } from "./dist/index.js"; globalThis.x = HubClient;');
  // A worker's bundle: `node:fs`, imported only for a journal path, is the runtime's (or refused).
  const server = await size('import { HubServerClient } from "./dist/server/index.js"; globalThis.x = HubServerClient;', { external: ["fs/promises", "path", "node:*"] });
  const ky = await size('import ky from "ky"; globalThis.x = ky;');
  const kyZod = await size('import ky from "ky"; import * as z from "zod/mini"; globalThis.x = [ky, z.safeParse(z.object({ a: z.string() }), {})];');
  return [
    `| browser bundle, min+gz | \`.\` ${root.toFixed(1)} KB; \`./server\` ${server.toFixed(1)} KB | ky alone ${ky.toFixed(1)} KB; ky + zod/mini ${kyZod.toFixed(1)} KB | \`.\` − ky = ${(root - ky).toFixed(1)} KB | \`.\` ≤ ${BROWSER_BUDGET_BYTES / 1024} KB budget ${root * 1024 <= BROWSER_BUDGET_BYTES ? "✅" : `❌ (missed by ${Math.round(root * 1024 - BROWSER_BUDGET_BYTES)} B)`}; ≤ ${BROWSER_CEILING_BYTES / 1024} KB ceiling ${root * 1024 <= BROWSER_CEILING_BYTES ? "✅" : "❌"} (docs/build-notes.md) |`,
  ];
}

/**
 * Heap after every `step` reads (after a full GC), and the least-squares slope in bytes per read:
 * a leak shows as a steady slope, while GC noise moves single points by megabytes either way.
 */
async function memoryRow(client) {
  const reads = async (count) => {
    const workers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = w; i < count; i += 16) await client.getLeaderboard({ limit: 10 });
    });
    await Promise.all(workers);
  };
  const heap = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    return process.memoryUsage().heapUsed;
  };
  const { step, steps } = MEMORY_READS;
  await reads(step); // warm-up: JIT, connection pool
  const points = [];
  for (let i = 1; i <= steps; i++) {
    await reads(step);
    points.push([i * step, heap()]);
  }
  const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;
  const mx = mean(points.map(([x]) => x));
  const my = mean(points.map(([, y]) => y));
  const slope = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0) / points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);
  const [first, last] = [points[0][1], points.at(-1)[1]];
  const ok = globalThis.gc ? slope < 20 : undefined;
  return `| memory | heap after ${fmt(step)} reads ${mb(first)} MB … after ${fmt(step * steps)} ${mb(last)} MB (min ${mb(Math.min(...points.map((p) => p[1])))}, max ${mb(Math.max(...points.map((p) => p[1])))}) | — | slope ${slope.toFixed(1)} bytes/read | < 20 bytes/read (2 MB per 100k) ${ok === undefined ? "(run with --expose-gc)" : ok ? "✅" : "❌"} |`;
}

/**
 * Instructions per signature under `valgrind --tool=callgrind`: deterministic, whatever else the
 * machine does. Per op = (I(N2) − I(N1)) / (N2 − N1), which cancels Node's start-up. Full mode only.
 */
async function instructionRows() {
  const valgrind = await promisify(execFile)("valgrind", ["--version"]).catch(() => undefined);
  if (SMOKE || !valgrind) return SMOKE ? [] : ["| instructions per signature | (valgrind not installed: skipped) | | | |"];
  const count = async (variant, n) => {
    // --single-threaded: no concurrent compiler or GC threads, whose timing moves the count.
    const worker = variant.startsWith("read-") ? "./read-instructions-worker.mjs" : "./instructions-worker.mjs";
    const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded", new URL(worker, import.meta.url).pathname, variant, String(n)];
    const { stderr } = await promisify(execFile)("valgrind", args, { maxBuffer: 1 << 24 });
    return Number(/Collected : (\d+)/.exec(stderr)[1]);
  };
  const perOp = async (variant, [n1, n2]) => ((await count(variant, n2)) - (await count(variant, n1))) / (n2 - n1);
  const rows = [];
  // signRequest is stateless: its raw primitive imports the key and signs, as it does; the client's
  // awards sign with a key imported once per client (the second line, informative).
  for (const [what, raw, goal] of [["signRequest, instructions per op (callgrind)", "web-raw", 0.9], ["signRequest against a key imported once (what a client's award pays)", "web-raw-imported", undefined]]) {
    const [sdk, base] = [await perOp("web-sdk", [2_000, 8_000]), await perOp(raw, [2_000, 8_000])];
    const ratio = base / sdk; // ops per instruction, SDK ÷ baseline
    rows.push(`| ${what} | ${Math.round(sdk).toLocaleString("en")} | ${Math.round(base).toLocaleString("en")} | **${ratio.toFixed(2)}×** (callgrind, ±2 % run to run) | ${goal === undefined ? "(informative)" : `≥ ${goal}× ${ratio >= goal ? "✅" : "❌"}`} |`);
  }
  // A read's client work: the SDK's getHolder ÷ ky alone (defaults), same canned fetch.
  const [sdkRead, kyRead] = [await perOp("read-sdk", [2_000, 8_000]), await perOp("read-ky", [2_000, 8_000])];
  const readRatio = sdkRead / kyRead;
  rows.push(`| read, instructions per call (callgrind, canned fetch) | getHolder ${Math.round(sdkRead).toLocaleString("en")} | ky.get().json() ${Math.round(kyRead).toLocaleString("en")} | **${readRatio.toFixed(2)}×** SDK ÷ ky (±3 % run to run) | ≤ 1.05× ${readRatio <= 1.05 ? "✅" : "❌"} |`);
  // The same read validated by a small zod object (`schemas.holder`), against the read without one.
  const zodRead = await perOp("read-sdk-zod", [2_000, 8_000]);
  const zodRatio = zodRead / sdkRead;
  rows.push(`| read validated by a small zod object (\`schemas.holder\`), instructions per call (callgrind, canned fetch) | getHolder with schema ${Math.round(zodRead).toLocaleString("en")} | getHolder without ${Math.round(sdkRead).toLocaleString("en")} | **${zodRatio.toFixed(2)}×** with ÷ without | ≤ 1.10× ${zodRatio <= 1.1 ? "✅" : "❌"} |`);
  return rows;
}

const server = await startServer();
try {
  const client = new HubClient({ baseUrl: server.baseUrl, clientId: "pk_bench", hub: "alpha" });
  const subtleKey = await webcrypto.subtle.importKey("raw", new TextEncoder().encode(KEY), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const sign = { timestamp: "1751007723", method: "POST", path: PATH, body: BODY, signingKey: KEY };

  const rows = [];
  const rawSign = async (key) => Buffer.from(await webcrypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${sign.timestamp}.POST.${PATH}.${BODY}`))).toString("hex");
  rows.push(row("sign one award (150-byte body)", "signRequest (signing key)", "subtle.importKey + sign", 0.9, await compare({
    sdk: () => signRequest(sign),
    baseline: async () => rawSign(await webcrypto.subtle.importKey("raw", new TextEncoder().encode(KEY), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])),
  })));
  rows.push(row("the same, against a key imported once (what a client's award pays)", "signRequest (signing key)", "subtle.sign, imported key", undefined, await compare({
    sdk: () => signRequest(sign),
    baseline: () => rawSign(subtleKey),
  })));
  // Round trips (reads and signed awards, against bare fetch, ky and the peer SDKs) are in the peer
  // table below (bench/peers.mjs), which measures every client in the same interleaved rounds.
  // Client CPU of a read validated by a small zod object against the same read without: a canned
  // fetch (no network, no server), interleaved rounds. Throughput ≥ 0.91× is CPU per read ≤ 1.10×.
  const canned = async () => new Response(HOLDER_BODY, { status: 200, headers: { "content-type": "application/json" } });
  const plainReads = new HubClient({ baseUrl: server.baseUrl, clientId: "pk_bench", hub: "alpha", fetch: canned });
  const zodReads = new HubClient({ baseUrl: server.baseUrl, clientId: "pk_bench", hub: "alpha", fetch: canned, schemas: { holder: HOLDER_SCHEMA } });
  rows.push(row("read validated by a small zod object (canned fetch)", "with `schemas.holder`", "same read without", 0.91, await compare({
    sdk: () => zodReads.getHolder("0xabc"),
    baseline: () => plainReads.getHolder("0xabc"),
  })));
  rows.push(...(await instructionRows()));
  rows.push(...(await bundleRows()));
  rows.push(await memoryRow(client));

  const cpu = cpus()[0]?.model ?? "unknown CPU";
  const header = [
    `Machine: ${cpu}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z${SMOKE ? " (smoke: short rounds, not a measurement)" : ""}`,
    `Rounds: ${ROUNDS} × ${TIME_MS} ms per task, order alternating; ratio = SDK ÷ baseline of the per-round median throughputs; the table shows the median ratio over rounds (min–max).`,
    "",
    "| what | SDK | baseline in the same run | ratio | goal |",
    "|---|---|---|---|---|",
  ];
  const peers = await peerSection({ baseUrl: server.baseUrl, secret: SECRET, smoke: SMOKE });
  const coldStart = await coldStartSection({ smoke: SMOKE });
  // Campaigns and the rate limit run their own servers; the bench server idles meanwhile.
  const campaigns = await campaignSection();
  const rateLimit = await rateLimitSection({ smoke: SMOKE });
  // Last: it registers a global tracer provider (an AsyncLocalStorage context manager) for the process.
  const telemetry = await telemetrySection({ baseUrl: server.baseUrl, smoke: SMOKE });
  const table = [...header, ...rows, "", ...peers, "", ...coldStart, "", ...telemetry, "", ...campaigns, "", ...rateLimit].join("\n");
  console.log(table);
  if (!SMOKE && process.argv.includes("--write")) {
    // Rewrites the measured table; the hand-written analysis below it is kept.
    const file = new URL("./RESULTS.md", import.meta.url);
    const previous = existsSync(file) ? readFileSync(file, "utf8") : "";
    const analysis = previous.includes("## Analysis") ? previous.slice(previous.indexOf("## Analysis")) : "";
    writeFileSync(file, `# Benchmark results\n\n\`npm run bench -- --write\` on this project's machine.\n\n${table}\n\n${analysis}`);
  }
} finally {
  server.stop();
}

