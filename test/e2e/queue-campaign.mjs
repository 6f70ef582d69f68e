// The queue e2e (examples/queue-campaign): worker processes running the packed package take award
// jobs from BullMQ on a real redis-server and send them to a real HTTP API server. One worker is
// killed with SIGKILL mid-campaign; every award must still be credited exactly once, with no failed
// job. Then throughput with 1, 2 and 3 workers, without and with a rate limit on the server
// (the workers sharing one budget in Redis, as shipped, and each on its own pace).
// Run by `npm run e2e:queue` (installs redis-server first). Prints PASS/FAIL lines, exits 1 on failure.
// Flags: --throughput-only (no kill run), --no-throughput, --only=<part of a throughput case's name>.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Queue } from "bullmq";
import * as esbuild from "esbuild";
import { Redis } from "ioredis";
import { installPacked, packedTarball, repo, versionOf } from "./lib/consumer.mjs";

const run = promisify(execFile);
// Outside the repository: nothing may resolve to its tsconfig paths, src/ or node_modules.
const work = join(tmpdir(), "public-hub-sdk-e2e-queue");
const consumer = join(work, "consumer");
const KILL_RUN_AWARDS = 1_200;
const THROUGHPUT_AWARDS = 600;
const RATE_LIMIT = 100; // requests per second the rate-limited server accepts
const LIMITED_AWARDS = 300;
const tally = { passed: 0, failed: 0 };
const children = new Set();

const line = (ok, what, detail = "") => {
  ok ? tally.passed++ : tally.failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${what}${detail ? ` — ${detail}` : ""}`);
};
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function step(what, body) {
  try {
    await body();
  } catch (error) {
    line(false, what, String(error.stack ?? error).split("\n").slice(0, 12).join("\n    "));
  }
}

/** Installs the packed package (built and packed once for all e2e scripts) with the example's dependencies, and bundles the example's two programs. */
async function prepareConsumer() {
  rmSync(work, { recursive: true, force: true });
  const tarball = await packedTarball();
  mkdirSync(consumer, { recursive: true });
  cpSync(join(repo, "test/e2e/consumer/api-server.mjs"), join(consumer, "api-server.mjs"));
  const dependencies = Object.fromEntries(["msw", "bullmq", "ioredis", "csv-parse"].map((name) => [name, versionOf(name)]));
  await installPacked(consumer, tarball, { name: "hub-queue-consumer", private: true, type: "module", dependencies });
  // As a user's build would: the example's TypeScript, its imports left to the installed packages.
  await esbuild.build({
    entryPoints: ["worker", "producer"].map((name) => join(repo, `examples/queue-campaign/${name}.ts`)),
    bundle: true, packages: "external", platform: "node", format: "esm", target: "node20",
    outdir: consumer, outExtension: { ".js": ".mjs" }, logLevel: "error", tsconfigRaw: {},
  });
  return basename(tarball);
}

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  return port;
}

/** Resolves when a child prints a line matching `pattern`; rejects if it exits first. */
function waitForOutput(child, pattern, what, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${what}: no ${pattern} after ${timeoutMs} ms\n${seen}`)), timeoutMs);
    const onData = (chunk) => {
      seen += chunk;
      if (pattern.test(seen)) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve();
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before ${pattern}\n${seen}`)));
  });
}

function start(command, args, options) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], ...options });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stderrText = "";
  child.stderr.on("data", (chunk) => (child.stderrText += chunk));
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

async function stop(child, signal = "SIGTERM") {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  process.kill(child.pid, signal);
  await exited;
}

async function startRedis() {
  const port = await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work];
  const child = start("redis-server", args, { cwd: work });
  await waitForOutput(child, /Ready to accept connections/, "redis-server");
  return { url: `redis://127.0.0.1:${port}`, child };
}

/** Answers 429 above `limit` requests in any one second (a sliding window), every other one with `Retry-After: 1`. */
function rateGate() {
  const gate = { limit: Infinity, accepted: [], sends: [], refusals: 0, refuseOnceAt: 0, refusedAt: 0 };
  gate.reset = (limit, refuseOnceAt = 0) => Object.assign(gate, { limit, accepted: [], sends: [], refusals: 0, refuseOnceAt, refusedAt: 0 });
  gate.handle = (req, res) => {
    if (req.method !== "POST") return false;
    const now = performance.now();
    gate.sends.push(now);
    if (gate.sends.length === gate.refuseOnceAt) {
      // One 429 with Retry-After: 2, to see whether every worker waits, not only the one it reached.
      gate.refusals++;
      gate.refusedAt = now;
      req.resume();
      res.writeHead(429, { "content-type": "application/json", "retry-after": "2" }).end("{}");
      return true;
    }
    const recent = gate.accepted.filter((t) => t > now - 1000).length;
    if (recent < gate.limit) {
      gate.accepted.push(now);
      return false;
    }
    gate.refusals++;
    req.resume();
    const headers = { "content-type": "application/json", ...(gate.refusals % 2 ? { "retry-after": "1" } : {}) };
    res.writeHead(429, headers).end(JSON.stringify({ error: { code: "rate_limited", message: "Too many requests." } }));
    return true;
  };
  return gate;
}

/** The most timestamps in any window of one second. */
function peakPerSecond(times) {
  let peak = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    peak = Math.max(peak, i - j + 1);
  }
  return peak;
}

/** Awards for one campaign; refs with `:` and all-digit refs, which BullMQ refuses as raw job ids. */
function makeAwards(count, { kinds }) {
  return Array.from({ length: count }, (_, i) => {
    const wallet = `0x${(0xa000 + (i % 150)).toString(16)}`;
    const ref = i % 10 === 0 ? String(100_000 + i) : `campaign-7:${i}:${wallet}`;
    return kinds && i % 4 === 3 ? { wallet, kind: "daily-login", ref } : { wallet, amount: 1 + (i % 7), reason: "campaign 7", ref };
  });
}

function writeAwards(name, awards, format) {
  const path = join(work, name);
  const csv = () => ["wallet,amount,reason,ref", ...awards.map((a) => `${a.wallet},${a.amount},${a.reason},${a.ref}`)].join("\n");
  writeFileSync(path, format === "csv" ? `${csv()}\n` : `${awards.map((a) => JSON.stringify(a)).join("\n")}\n`);
  return path;
}

const context = {};

async function startWorker(queueName, extraEnv = {}) {
  const env = {
    ...process.env, REDIS_URL: context.redis.url, QUEUE_NAME: queueName, HUB_BASE_URL: context.api.baseUrl,
    HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha", WORKER_CONCURRENCY: "16", ...extraEnv,
  };
  const child = start(process.execPath, ["worker.mjs"], { cwd: consumer, env });
  await waitForOutput(child, /^ready:/m, `worker ${child.pid}`);
  return child;
}

function produce(queueName, file) {
  return run(process.execPath, ["producer.mjs", file], { cwd: consumer, env: { ...process.env, REDIS_URL: context.redis.url, QUEUE_NAME: queueName } });
}

// The baseline of the throughput table: the same awards from one process, no queue, 16 in flight.
const DIRECT = `import { readFileSync } from "node:fs";
import { HubServerClient } from "public-hub-sdk/server";
const client = new HubServerClient({ baseUrl: process.env.HUB_BASE_URL, clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha", retry: 0 });
const [header, ...rows] = readFileSync(process.argv[2], "utf8").trim().split("\\n");
const awards = rows.map((row) => row.split(",")).map(([wallet, amount, reason, ref]) => ({ wallet, amount: Number(amount), reason, ref }));
let next = 0;
await Promise.all(Array.from({ length: 16 }, async () => { while (next < awards.length) await client.awardPoints(awards[next++]); }));
`;

async function direct(file, awards) {
  context.api.mock.reset();
  context.gate.reset(Infinity);
  writeFileSync(join(consumer, "direct.mjs"), DIRECT);
  const started = performance.now();
  await run(process.execPath, ["direct.mjs", file], { cwd: consumer, env: { ...process.env, HUB_BASE_URL: context.api.baseUrl } });
  const seconds = (performance.now() - started) / 1000;
  const at = context.api.mock.ledger.map((award) => award.at);
  const awardsPerSecond = ((at.length - 1) * 1000) / (Math.max(...at) - Math.min(...at));
  line(at.length === awards.length, "baseline: one process, no queue", `${at.length} awards, ${awardsPerSecond.toFixed(0)} awards/s`);
  return { workers: "1 process, no queue (baseline)", awards, server: "no limit", result: { seconds, awardsPerSecond }, peakSent: peakPerSecond(context.gate.sends), refusals: 0 };
}

/** Runs one campaign to its end: workers first, then the producer; `during` may act while it runs. */
async function campaign({ queueName, file, total, workers, limit = Infinity, refuseOnceAt = 0, workerEnv = {}, during }) {
  context.api.mock.reset();
  context.gate.reset(limit, refuseOnceAt);
  const queue = new Queue(queueName, { connection: context.connection });
  const pool = await Promise.all(Array.from({ length: workers }, () => startWorker(queueName, workerEnv)));
  try {
    const started = performance.now();
    await produce(queueName, file);
    let counts;
    for (;;) {
      counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "completed", "failed");
      if (counts.completed + counts.failed >= total) break;
      if (performance.now() - started > 120_000) throw new Error(`campaign ${queueName} stuck: ${JSON.stringify(counts)}`);
      await during?.({ pool, queue, queueName, workerEnv });
      await sleep(50);
    }
    const seconds = (performance.now() - started) / 1000;
    const at = context.api.mock.ledger.map((award) => award.at);
    const awardsPerSecond = at.length > 1 ? ((at.length - 1) * 1000) / (Math.max(...at) - Math.min(...at)) : 0;
    return { queue, counts, seconds, awardsPerSecond, ledger: [...context.api.mock.ledger], requests: [...context.api.mock.requests] };
  } finally {
    await Promise.all(pool.map((child) => stop(child)));
  }
}

/** Every award credited once, balances right, no failed job. */
async function verify(what, awards, result) {
  const refs = result.ledger.map((award) => award.ref);
  const expected = new Set(awards.map((award) => award.ref));
  const once = refs.length === expected.size && new Set(refs).size === refs.length && refs.every((ref) => expected.has(ref));
  line(once, `${what}: every award credited exactly once`, `${refs.length} applied, ${new Set(refs).size} distinct refs, ${expected.size} in the file`);
  const due = new Map();
  for (const award of awards) due.set(award.wallet, (due.get(award.wallet) ?? 0) + (award.amount ?? 5));
  const wrong = [...due].filter(([wallet, points]) => context.api.mock.balanceOf("alpha", wallet) !== points);
  line(wrong.length === 0, `${what}: every wallet's balance is the sum of its awards`, `${due.size} wallets${wrong.length ? `, wrong: ${wrong.slice(0, 3).join(" ")}` : ""}`);
  const { completed, failed, waiting, active, delayed, prioritized } = result.counts;
  const clean = completed === awards.length && failed === 0 && waiting + active + delayed + prioritized === 0;
  line(clean, `${what}: BullMQ shows ${completed} completed, ${failed} failed jobs`, JSON.stringify(result.counts));
}

async function killRun() {
  const awards = makeAwards(KILL_RUN_AWARDS, { kinds: true });
  const file = writeAwards("kill-run.jsonl", awards, "jsonl");
  const queueName = "e2e-kill";
  const kill = { done: false, activeAtKill: 0, replacement: undefined };
  const result = await campaign({
    queueName, file, total: awards.length, workers: 3,
    during: async ({ pool, queue }) => {
      if (kill.done || context.api.mock.ledger.length < awards.length * 0.3) return;
      kill.done = true;
      kill.activeAtKill = (await queue.getJobCounts("active")).active;
      await stop(pool[0], "SIGKILL");
      pool.push(await startWorker(queueName));
    },
  });
  const jobs = await result.queue.getJobs(["completed"], 0, -1);
  const restarted = jobs.filter((job) => job.attemptsStarted > 1 || job.stalledCounter > 0).length;
  const posts = new Map();
  for (const request of result.requests.filter((r) => r.method === "POST")) {
    const ref = JSON.parse(request.body).ref;
    posts.set(ref, (posts.get(ref) ?? 0) + 1);
  }
  const sentTwice = [...posts.values()].filter((n) => n > 1).length;
  line(kill.done && restarted > 0, "kill: one of 3 workers SIGKILLed mid-campaign, a new one started, its jobs recovered",
    `${kill.activeAtKill} jobs active at the kill, ${restarted} jobs started again, ${sentTwice} awards sent twice (answered as duplicates)`);
  await verify(`kill run (${awards.length} awards, JSON Lines, 3 workers)`, awards, result);

  // The producer again, after the campaign: every id exists, so nothing is added or sent.
  const before = result.requests.length;
  await produce(queueName, file);
  await sleep(300);
  const counts = await result.queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
  line(counts.completed === awards.length && counts.waiting + counts.active + counts.delayed === 0 && context.api.mock.requests.length === before,
    "re-running the producer adds no job (job id = ref)", JSON.stringify(counts));
  await result.queue.close();
}

/** One 429 with Retry-After: 2 reaches one worker; the queue's pause must hold back all three. */
async function pauseRun() {
  const awards = makeAwards(400, { kinds: false });
  const file = writeAwards("pause.csv", awards, "csv");
  const result = await campaign({ queueName: "e2e-pause", file, total: awards.length, workers: 3, refuseOnceAt: 100 });
  await result.queue.close();
  await verify("pause run (400 awards, 3 workers, one 429)", awards, result);
  // Requests in flight when the 429 was sent still arrive just after it; none may start later
  // until the pause is over.
  const { refusedAt, sends } = context.gate;
  const during = sends.filter((t) => t > refusedAt + 500 && t < refusedAt + 1_800).length;
  const after = sends.filter((t) => t >= refusedAt + 1_800).length;
  line(refusedAt > 0 && during === 0 && after > 0, "a 429 with Retry-After: 2 pauses every worker, not only the one it reached",
    `${during} requests from 0.5 s to 1.8 s after it, ${after} after`);
}

async function badFile() {
  const path = join(work, "bad.csv");
  writeFileSync(path, "wallet,amount,reason,ref\n0xa,10,ok,r-1\n0xb,-3,bad amount,r-2\n,4,no wallet,r-3\n0xc,1,twice,r-1\n");
  const queueName = "e2e-bad";
  const error = await produce(queueName, path).then(() => undefined, (e) => e);
  const queue = new Queue(queueName, { connection: context.connection });
  const counts = await queue.getJobCounts("waiting", "completed");
  await queue.close();
  const said = error?.stderr ?? "";
  line(error?.code === 1 && counts.waiting + counts.completed === 0 && /line 3/.test(said) && /line 4/.test(said) && /line 5/.test(said),
    "a file with bad lines is refused, nothing enqueued", said.trim().split("\n").join(" | "));
}

async function throughput() {
  const rows = [];
  const csvAwards = makeAwards(THROUGHPUT_AWARDS, { kinds: false });
  const csv = writeAwards("throughput.csv", csvAwards, "csv");
  const limitedAwards = makeAwards(LIMITED_AWARDS, { kinds: false });
  const limitedCsv = writeAwards("limited.csv", limitedAwards, "csv");
  if (!process.argv.some((arg) => arg.startsWith("--only="))) await step("baseline", async () => rows.push(await direct(csv, csvAwards)));
  const cases = [
    ...[1, 2, 3].map((workers) => ({ workers, awards: csvAwards, file: csv, server: "no limit" })),
    // The example as shipped: every worker's client shares one budget in Redis (a limit this server
    // never announces: its 429s, half of them with Retry-After, pause and pace them all).
    ...[1, 2, 3].map((workers) => ({ workers, awards: limitedAwards, file: limitedCsv, server: `${RATE_LIMIT}/s`, limit: RATE_LIMIT, workerEnv: {} })),
    // Each worker on its own pace (HUB_BUDGET=local): the server's 429s pause the queue (Retry-After, or 1 s without it).
    { workers: 3, awards: limitedAwards, file: limitedCsv, server: `${RATE_LIMIT}/s, workers unaware`, limit: RATE_LIMIT, workerEnv: { HUB_BUDGET: "local" } },
  ];
  const only = process.argv.find((arg) => arg.startsWith("--only="))?.slice("--only=".length);
  for (const [i, c] of cases.entries()) {
    const what = `throughput ${c.workers} worker(s), server ${c.server}`;
    if (only && !what.includes(only)) continue;
    await step(what, async () => {
      const result = await campaign({ queueName: `e2e-rate-${i}`, file: c.file, total: c.awards.length, workers: c.workers, limit: c.limit, workerEnv: c.workerEnv });
      await result.queue.close();
      const peakSent = peakPerSecond(context.gate.sends);
      const peakAccepted = peakPerSecond(context.gate.accepted);
      rows.push({ ...c, result, peakSent, peakAccepted, refusals: context.gate.refusals });
      await verify(what, c.awards, result);
      const detail = `${result.awardsPerSecond.toFixed(0)} awards/s, busiest second ${peakSent} sent, ${peakAccepted} accepted, ${context.gate.refusals} answered 429`;
      // A limit that says nothing is learnt from its 429s, which must have paused the workers (and
      // still no award is lost or doubled, checked above). How many it costs, shared or not:
      // test/e2e/shared-budget.mjs measures it against announced and silent limits.
      if (c.limit) line(context.gate.refusals >= 2, `${what}: 429s (with and without Retry-After) pause the queue`, detail);
    });
  }
  console.log(`\nload average while measuring: ${loadavg().map((l) => l.toFixed(1)).join(", ")} on ${cpus().length} cores`);
  console.log("\n| workers (concurrency 16 each) | server | limited by | awards | awards/s | wall time | busiest second: sent | 429 answers |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    const env = r.workerEnv ?? {};
    const limiter = env.HUB_BUDGET === "local" ? "each worker's own pace" : "the shared budget (Redis)";
    console.log(`| ${r.workers} | ${r.server} | ${limiter} | ${r.awards.length} | ${r.result.awardsPerSecond.toFixed(0)} | ${r.result.seconds.toFixed(1)} s | ${r.peakSent} | ${r.refusals} |`);
  }
  console.log("");
}

const began = performance.now();
await step("setup", async () => {
  const tarball = await prepareConsumer();
  context.redis = await startRedis();
  context.connection = new Redis(context.redis.url, { maxRetriesPerRequest: null });
  context.gate = rateGate();
  const { startApiServer } = await import(pathToFileURL(join(consumer, "api-server.mjs")).href);
  context.api = await startApiServer({ intercept: context.gate.handle });
  const redisVersion = (await context.connection.info("server")).match(/redis_version:(\S+)/)[1];
  console.log(`e2e queue: packed ${tarball}, redis-server ${redisVersion} on ${context.redis.url}, API on ${context.api.baseUrl}, bullmq ${versionOf("bullmq")}`);
});
try {
  if (context.api) {
    if (!process.argv.includes("--throughput-only")) {
      await step("kill run", killRun);
      await step("bad file", badFile);
      await step("pause run", pauseRun);
    }
    if (!process.argv.includes("--no-throughput")) await throughput();
  }
} finally {
  for (const child of children) await stop(child, "SIGKILL");
  context.connection?.disconnect();
  await context.api?.close();
  if (context.redis) await stop(context.redis.child);
}
console.log(`e2e queue: ${tally.passed} passed, ${tally.failed} failed in ${((performance.now() - began) / 1000).toFixed(0)} s`);
process.exitCode = tally.failed === 0 ? 0 : 1;
