// The shared budget end to end: how worker processes that award points through the packed SDK
// share one hub's rate limit. The hub is the CLI's own mock (`public-hub mock --rate-limit 50`,
// a fixed one-second window) announcing its limit in one of four forms: IETF `RateLimit`,
// `X-RateLimit-*`, express-rate-limit's draft-7 `RateLimit: limit=…, remaining=…, reset=…`, or
// nothing (`none`: a 429 alone). A counting proxy of ours (shared-budget/counting-proxy.mjs) sits
// in front of it and counts every request to the award route and every 429.
//
// Two kinds of workers, each run with N = 1, 2, 4, 8 processes over the same awards (amount 1
// each to 200 wallets, a unique `ref` each):
//   queue: the shipped example examples/queue-campaign (BullMQ on a real redis-server): N
//          workers of concurrency 16, one producer enqueues the campaign file (JSON Lines);
//   plain: N processes, each `awardMany` over its own slice (concurrency 16, a journal each),
//          shared-budget/slice-worker.mjs.
// Both read `HUB_BUDGET`: `local` (each process paces itself, the SDK's default) or `redis` (one
// budget for all processes, `redisBudget` from public-hub-sdk/server; without that export the
// plain program says so and falls back to local).
//
// For each case: award POSTs the hub received, 429s, requests per award (POSTs ÷ awards), wall
// time against the ideal (awards ÷ 50 s), awards (jobs) failed, and exactly-once read back from
// the hub itself: its ledger (one entry per ref, none missing, none extra) and every wallet's
// balance by the holder read (= the number of awards sent to it). A table row per case, and a
// markdown table at the end. Then two faults: a queue worker of 4 SIGKILLed a third of the way
// in; redis-server restarted (SIGTERM, again on the same port 2 s later) during a plain run of 4.
//
// Flags:
//   --kind=queue|plain|queue,plain     (default both)
//   --workers=1,2,4,8                   processes per case
//   --forms=ietf,x-ratelimit,ietf-draft7,none   limit forms (also: ietf-legacy; `bare` is `none`
//                                        with Retry-After removed from 429s by the proxy)
//   --awards=2000                       awards per case
//   --budget=redis|local                HUB_BUDGET given to every worker (default redis)
//   --goals                             a case FAILs above 1.10 requests per award (announced forms),
//                                        1.30 (silent forms), 1.15 × the ideal time, or any failed
//                                        award; without it only exactly-once and "0 failed" are
//                                        PASS/FAIL, the ratios are figures
//   --faults=kill,redis-restart|none    the fault runs (default both); --faults-only skips the matrix
// Run: `bash test/e2e/install-redis.sh && node test/e2e/shared-budget.mjs [flags]`. Prints
// PASS/FAIL lines and "e2e shared budget: N passed, M failed"; exits 1 on any failure.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { Queue } from "bullmq";
import * as esbuild from "esbuild";
import { Redis } from "ioredis";
import { installPacked, packedTarballs, repo, versionOf } from "./lib/consumer.mjs";
import { startCountingProxy } from "./shared-budget/counting-proxy.mjs";

const run = promisify(execFile);
// Outside the repository: nothing may resolve to its tsconfig paths, src/ or node_modules.
const work = join(tmpdir(), "public-hub-sdk-e2e-shared-budget");
const consumer = join(work, "consumer");
const LIMIT = 50; // requests per second the hub allows
const WALLETS = 200;
const KEY = { HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha" };
const SILENT_FORMS = new Set(["none", "bare"]);
const GOALS = { announced: 1.1, silent: 1.3, time: 1.15 };

// --- flags -------------------------------------------------------------------------------------
const flag = (name) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
const list = (name, fallback) => (flag(name) ?? fallback).split(",").map((s) => s.trim()).filter(Boolean);
const options = {
  kinds: list("kind", "queue,plain"),
  workers: list("workers", "1,2,4,8").map(Number),
  forms: list("forms", "ietf,x-ratelimit,ietf-draft7,none"),
  awards: Number(flag("awards") ?? 2000),
  budget: flag("budget") ?? "redis",
  goals: process.argv.includes("--goals"),
  faults: list("faults", "kill,redis-restart").filter((f) => f !== "none"),
  matrix: !process.argv.includes("--faults-only"),
};
const usage = [];
if (options.kinds.some((k) => k !== "queue" && k !== "plain")) usage.push("--kind must be queue, plain or both");
if (options.workers.some((n) => !Number.isInteger(n) || n < 1)) usage.push("--workers must be positive integers");
if (options.forms.some((f) => !["ietf", "x-ratelimit", "ietf-draft7", "ietf-legacy", "none", "bare"].includes(f))) usage.push("--forms: ietf, x-ratelimit, ietf-draft7, ietf-legacy, none, bare");
if (!Number.isInteger(options.awards) || options.awards < WALLETS) usage.push(`--awards must be an integer ≥ ${WALLETS}`);
if (options.budget !== "redis" && options.budget !== "local") usage.push("--budget must be redis or local");
if (options.faults.some((f) => f !== "kill" && f !== "redis-restart")) usage.push("--faults: kill, redis-restart or none");
if (usage.length > 0) {
  console.error(usage.join("\n"));
  process.exit(2);
}
const idealSeconds = options.awards / LIMIT;

// --- small helpers (after queue-campaign.mjs) --------------------------------------------------
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

async function freePort() {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address();
  server.close();
  return port;
}

/** Resolves when a child prints a line matching `pattern`; rejects if it exits first. */
function waitForOutput(child, pattern, what, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`${what}: no ${pattern} after ${timeoutMs} ms\n${seen}\n${child.stderrText}`)), timeoutMs);
    const onData = (chunk) => {
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(match);
      }
    };
    child.stdout.on("data", onData);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before ${pattern}\n${seen}\n${child.stderrText}`));
    });
  });
}

/** A child process whose output is kept (`stdoutText`, `stderrText`), stopped at the end by its pid. */
function start(command, args, { stdin = "ignore", ...rest } = {}) {
  const child = spawn(command, args, { stdio: [stdin, "pipe", "pipe"], ...rest });
  child.stdout.setEncoding("utf8");
  child.stderr.setEncoding("utf8");
  child.stdoutText = "";
  child.stderrText = "";
  child.stdout.on("data", (chunk) => (child.stdoutText += chunk));
  child.stderr.on("data", (chunk) => (child.stderrText += chunk));
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

const exited = (child) => child.exitCode !== null || child.signalCode !== null;

async function stop(child, signal = "SIGTERM") {
  if (exited(child)) return;
  const done = once(child, "exit");
  process.kill(child.pid, signal);
  await done;
}

/** Stops a child with SIGTERM; SIGKILL when it has not exited after `graceMs`. */
async function stopWithin(child, graceMs = 15_000) {
  if (exited(child)) return;
  const done = once(child, "exit");
  process.kill(child.pid, "SIGTERM");
  const timer = setTimeout(() => !exited(child) && process.kill(child.pid, "SIGKILL"), graceMs);
  await done;
  clearTimeout(timer);
}

/** Packed SDK and CLI installed with the example's dependencies; the example's worker and producer bundled as a user's build would. */
async function prepareConsumer() {
  rmSync(work, { recursive: true, force: true });
  const { sdk, cli } = await packedTarballs();
  mkdirSync(consumer, { recursive: true });
  for (const name of ["slice-worker.mjs"]) writeFileSync(join(consumer, name), readFileSync(join(repo, "test/e2e/shared-budget", name)));
  const dependencies = Object.fromEntries(["msw", "bullmq", "ioredis", "csv-parse"].map((name) => [name, versionOf(name)]));
  await installPacked(consumer, sdk, { name: "hub-shared-budget-consumer", private: true, type: "module", dependencies }, { cli });
  await esbuild.build({
    entryPoints: ["worker", "producer"].map((name) => join(repo, `examples/queue-campaign/${name}.ts`)),
    bundle: true, packages: "external", platform: "node", format: "esm", target: "node20",
    outdir: consumer, outExtension: { ".js": ".mjs" }, logLevel: "error", tsconfigRaw: {},
  });
  return { sdk: basename(sdk), cli: basename(cli) };
}

async function startRedis(port) {
  port ??= await freePort();
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", work];
  const child = start("redis-server", args, { cwd: work });
  await waitForOutput(child, /Ready to accept connections/, "redis-server");
  return { url: `redis://127.0.0.1:${port}`, port, child };
}

// --- the hub -----------------------------------------------------------------------------------
/**
 * `public-hub mock` from the installed CLI with a limit of LIMIT requests per second announced in
 * `form`, and the counting proxy in front of it. Its log (one line per request) counts the award
 * POSTs too: a check on the proxy's count.
 */
async function startHub(form) {
  const style = form === "bare" ? "none" : form;
  const child = start(join(consumer, "node_modules/.bin/public-hub"), ["mock", "--port", "0", "--rate-limit", String(LIMIT), "--rate-limit-headers", style], { cwd: work, env: { ...process.env, NO_COLOR: "1" } });
  const logged = { posts: 0, refused: 0 };
  let partial = "";
  child.stdout.on("data", (chunk) => {
    const lines = (partial + chunk).split("\n");
    partial = lines.pop();
    for (const text of lines) {
      const match = /^POST \/api\/v1\/hub\/[^/\s]+\/bits\/earn (\d{3}) \d+ ms$/.exec(text);
      if (!match) continue;
      logged.posts++;
      if (match[1] === "429") logged.refused++;
    }
  });
  const [, origin] = await waitForOutput(child, /listening on (http:\/\/[^/\s]+)\/api\/v1/, "public-hub mock");
  const proxy = await startCountingProxy(origin, { stripRetryAfter: form === "bare" });
  return {
    form, origin, logged, proxy, child,
    baseUrl: `${proxy.origin}/api/v1`, // what the workers are given
    stop: async () => {
      await proxy.close();
      await stopWithin(child, 5_000);
    },
  };
}

/** What one 429 and one accepted answer of the hub say of its limit (read once per form, printed). */
async function probeHeaders(hub) {
  const response = await fetch(`${hub.origin}/api/v1/hub/alpha/holder/0xprobe`, { headers: { "x-api-key": KEY.HUB_CLIENT_ID } });
  const pick = (headers) => [...headers].filter(([name]) => /ratelimit|retry-after/i.test(name)).map(([name, value]) => `${name}: ${value}`).join("; ") || "(none)";
  const accepted = pick(response.headers);
  await response.arrayBuffer();
  // More than the window holds, all at once at the start of a second (the window is the clock's second): some are refused.
  let refused;
  for (let attempt = 0; attempt < 3 && !refused; attempt++) {
    await sleep(1005 - (Date.now() % 1000));
    const burst = await Promise.all(Array.from({ length: LIMIT + 10 }, async () => {
      const r = await fetch(`${hub.origin}/api/v1/hub/alpha/holder/0xprobe`, { headers: { "x-api-key": KEY.HUB_CLIENT_ID } });
      await r.arrayBuffer();
      return r;
    }));
    const refusedAnswer = burst.find((r) => r.status === 429);
    refused = refusedAnswer && pick(refusedAnswer.headers);
  }
  return { accepted, refused: refused ?? "(no 429 seen)" };
}

/**
 * Exactly-once, read back from the hub: its ledger (GET /_mock/ledger, every applied award) holds
 * each expected ref once and nothing else, and the holder read of every wallet shows as many
 * points as awards were sent to it (amount 1 each). Reads go to the mock directly (not counted),
 * under its limit: at most 40 a second, a 429 waited out.
 */
async function checkHub(hub, awards) {
  const ledger = await (await fetch(`${hub.origin}/_mock/ledger`)).json();
  const expected = new Set(awards.map((award) => award.ref));
  const credited = new Map();
  for (const record of ledger) credited.set(record.ref, (credited.get(record.ref) ?? 0) + 1);
  const missing = [...expected].filter((ref) => !credited.has(ref));
  const twice = [...credited].filter(([, n]) => n > 1).map(([ref]) => ref);
  const extra = [...credited.keys()].filter((ref) => !expected.has(ref));
  const due = new Map();
  for (const award of awards) due.set(award.wallet, (due.get(award.wallet) ?? 0) + award.amount);
  const wallets = [...due.keys()];
  const wrong = [];
  for (let i = 0; i < wallets.length; i += 40) {
    const began = Date.now();
    await Promise.all(wallets.slice(i, i + 40).map(async (wallet) => {
      for (let attempt = 0; ; attempt++) {
        const response = await fetch(`${hub.origin}/api/v1/hub/alpha/holder/${wallet}`, { headers: { "x-api-key": KEY.HUB_CLIENT_ID } });
        if (response.status === 429 && attempt < 10) {
          await response.arrayBuffer();
          await sleep(1000 * Number(response.headers.get("retry-after") ?? 1));
          continue;
        }
        const body = await response.json();
        if (response.status !== 200 || body.bits !== due.get(wallet)) wrong.push(`${wallet}: ${response.status === 200 ? body.bits : response.status} ≠ ${due.get(wallet)}`);
        return;
      }
    }));
    await sleep(Math.max(0, 1000 - (Date.now() - began)) + 20);
  }
  const ok = missing.length === 0 && twice.length === 0 && extra.length === 0 && wrong.length === 0;
  const detail = `ledger ${ledger.length} credits of ${expected.size} refs (${missing.length} missing, ${twice.length} twice, ${extra.length} unknown); ` +
    `${wallets.length} wallets read, ${wrong.length} wrong${wrong.length ? `: ${wrong.slice(0, 3).join(", ")}` : ""}`;
  return { ok, detail, ledger: ledger.length };
}

// --- the campaign ------------------------------------------------------------------------------
/** `count` awards of amount 1 to WALLETS wallets, each with its own ref (with `:`, and some all digits, which BullMQ refuses as raw job ids). */
function makeAwards(count) {
  return Array.from({ length: count }, (_, i) => {
    const wallet = `0x${(0xb000 + (i % WALLETS)).toString(16)}`;
    return { wallet, amount: 1, reason: "shared budget", ref: i % 10 === 0 ? String(500_000 + i) : `shared-budget:${i}:${wallet}` };
  });
}
const jsonLines = (awards) => `${awards.map((award) => JSON.stringify(award)).join("\n")}\n`;

const context = {};
let caseNumber = 0;

/** Does the bundled worker read HUB_BUDGET? Until examples/queue-campaign/worker.ts does, its processes pace themselves whatever is asked. */
function queueBudget(wanted) {
  const reads = readFileSync(join(consumer, "worker.mjs"), "utf8").includes("HUB_BUDGET");
  return reads ? wanted : wanted === "local" ? "local" : "local (fallback: the worker ignores HUB_BUDGET)";
}

/** Runs until `finished()` says so, calling `during` every 100 ms; throws past the deadline. */
async function until(finished, during, what) {
  const began = performance.now();
  const deadline = 60_000 + idealSeconds * 10_000;
  for (;;) {
    if (await finished()) return;
    if (performance.now() - began > deadline) throw new Error(`${what}: not finished after ${(deadline / 1000).toFixed(0)} s`);
    await during?.();
    await sleep(100);
  }
}

/** The queue kind: N workers of the example, then the producer; done when every job completed or failed. */
async function runQueue({ hub, awards, workers, budget, during }) {
  const queueName = `shared-budget-${++caseNumber}`;
  const file = join(work, `${queueName}.jsonl`);
  writeFileSync(file, jsonLines(awards));
  const env = {
    ...process.env, ...KEY, REDIS_URL: context.redis.url, QUEUE_NAME: queueName, HUB_BASE_URL: hub.baseUrl,
    WORKER_CONCURRENCY: "16", HUB_BUDGET: budget,
  };
  delete env.QUEUE_MAX_PER_SECOND;
  const queue = new Queue(queueName, { connection: context.connection });
  const startWorker = async () => {
    const child = start(process.execPath, ["worker.mjs"], { cwd: consumer, env });
    await waitForOutput(child, /^ready:/m, `worker ${child.pid}`);
    return child;
  };
  const pool = await Promise.all(Array.from({ length: workers }, startWorker));
  try {
    const began = performance.now();
    let producerError;
    const producer = run(process.execPath, ["producer.mjs", file], { cwd: consumer, env }).catch((error) => (producerError = error));
    let counts;
    await until(
      async () => {
        if (producerError) throw new Error(`producer: ${producerError.stderr || producerError.message}`);
        // Redis may be away for a moment (the restart fault): ask again.
        counts = await queue.getJobCounts("waiting", "active", "delayed", "prioritized", "completed", "failed").catch(() => counts);
        return counts !== undefined && counts.completed + counts.failed >= awards.length;
      },
      () => during?.({ pool, queue }),
      `queue ${queueName}`,
    );
    const seconds = (performance.now() - began) / 1000;
    await producer;
    const killed = pool.filter((child) => child.signalCode === "SIGKILL").length;
    const jobs = await queue.getJobs(["completed"], 0, -1);
    // Taken back from a worker that stopped renewing its lock; a 429 sends a job back too (started again, not stalled).
    const stalled = jobs.filter((job) => job.stalledCounter > 0).length;
    const restarted = jobs.filter((job) => job.attemptsStarted > 1).length;
    return { seconds, failed: counts.failed, notes: `${counts.completed} completed`, budget: queueBudget(budget), killed, stalled, restarted, queue };
  } finally {
    await Promise.all(pool.map((child) => stopWithin(child)));
  }
}

/** The plain kind: N processes, each `awardMany` over its own contiguous slice; done when all have exited. */
async function runPlain({ hub, awards, workers, budget, during }) {
  const id = ++caseNumber;
  const size = Math.ceil(awards.length / workers);
  const env = { ...process.env, ...KEY, REDIS_URL: context.redis.url, HUB_BASE_URL: hub.baseUrl, HUB_BUDGET: budget };
  const pool = await Promise.all(Array.from({ length: workers }, async (_, i) => {
    const slice = join(work, `plain-${id}-slice-${i}.jsonl`);
    const journal = join(work, `plain-${id}-journal-${i}.jsonl`);
    writeFileSync(slice, jsonLines(awards.slice(i * size, (i + 1) * size)));
    rmSync(journal, { force: true });
    const child = start(process.execPath, ["slice-worker.mjs", slice, journal], { cwd: consumer, env, stdin: "pipe" });
    child.stdout.on("data", () => {
      if (child.doneAt === undefined && /^done: /m.test(child.stdoutText)) child.doneAt = performance.now();
    });
    await waitForOutput(child, /^ready:/m, `plain process ${child.pid}`);
    return child;
  }));
  try {
    const began = performance.now();
    for (const child of pool) child.stdin.end("go\n");
    await until(() => pool.every(exited), () => during?.({ pool }), `plain run ${id}`);
    const ends = pool.map((child) => child.doneAt ?? performance.now());
    const seconds = (Math.max(...ends) - began) / 1000;
    let failed = 0;
    const problems = [];
    for (const [i, child] of pool.entries()) {
      const done = /^done: (.*)$/m.exec(child.stdoutText);
      if (!done || child.exitCode !== 0) {
        failed += Math.min(size, Math.max(0, awards.length - i * size)); // its slice, unknown: counted failed
        problems.push(`process ${i} exited ${child.exitCode ?? child.signalCode} without a summary: ${child.stderrText.trim().split("\n").slice(-3).join(" | ")}`);
        continue;
      }
      const summary = JSON.parse(done[1]);
      failed += summary.failed + summary.mismatched;
      if (summary.failed > 0) problems.push(`process ${i}: ${JSON.stringify(summary.firstFailures)}`);
    }
    const budgets = [...new Set(pool.map((child) => /^budget: (.*)$/m.exec(child.stdoutText)?.[1] ?? "?"))];
    return { seconds, failed, notes: problems.join("; "), budget: budgets.join(" / ") };
  } finally {
    await Promise.all(pool.map((child) => stopWithin(child)));
  }
}

/** One case: a fresh hub, the campaign, the figures and the checks. */
async function runCase({ kind, workers, form, label = `${kind} × ${workers}, ${form}`, during, awards = makeAwards(options.awards) }) {
  const hub = await startHub(form);
  try {
    if (!context.probed.has(form)) {
      context.probed.set(form, await probeHeaders(hub));
      await sleep(1100); // the probe's window over
    }
    const result = await (kind === "queue" ? runQueue : runPlain)({ hub, awards, workers, budget: options.budget, during: during && ((state) => during({ ...state, hub })) });
    const { posts, statuses } = hub.proxy.stats;
    const refused = statuses[429] ?? 0;
    const other = Object.entries(statuses).filter(([status]) => status !== "429" && !/^2/.test(status)).map(([status, n]) => `${n}×${status}`);
    const check = await checkHub(hub, awards);
    const row = {
      kind, workers, form, budget: result.budget, awards: awards.length, posts, refused, other,
      perAward: posts / awards.length, seconds: result.seconds, ratio: result.seconds / idealSeconds, failed: result.failed, once: check.ok,
    };
    const logNote = hub.logged.posts === posts ? "" : ` (the hub's log counted ${hub.logged.posts} POSTs, ${hub.logged.refused} 429s)`;
    console.log(
      `  ${label.padEnd(26)} budget ${row.budget}: ${posts} POSTs, ${refused} × 429${other.length ? `, ${other.join(" ")}` : ""}${logNote} → ${row.perAward.toFixed(2)} requests/award; ` +
        `${row.seconds.toFixed(1)} s = ${row.ratio.toFixed(2)} × ideal ${idealSeconds} s; ${row.failed} failed; exactly once: ${check.ok ? "yes" : "NO"}`,
    );
    line(check.ok, `${label}: every award credited exactly once`, check.detail);
    line(result.failed === 0, `${label}: 0 ${kind === "queue" ? "jobs" : "awards"} failed`, `${result.failed} failed${result.notes ? `; ${result.notes}` : ""}`);
    if (options.goals) {
      const bound = SILENT_FORMS.has(form) ? GOALS.silent : GOALS.announced;
      const misses = [
        row.perAward > bound && `${row.perAward.toFixed(2)} requests/award > ${bound}`,
        row.ratio > GOALS.time && `${row.ratio.toFixed(2)} × ideal time > ${GOALS.time}`,
        row.failed > 0 && `${row.failed} failed`,
      ].filter(Boolean);
      line(misses.length === 0, `${label}: goals (≤ ${bound} requests/award, ≤ ${GOALS.time} × ideal time, none failed)`, misses.join(", ") || `${row.perAward.toFixed(2)} requests/award, ${row.ratio.toFixed(2)} × ideal`);
    }
    return { row, result, check, hub };
  } finally {
    await hub.stop();
  }
}

// --- faults ------------------------------------------------------------------------------------
/** A queue worker of 4 SIGKILLed a third of the way in: its jobs come back after their lock expires. */
async function killFault() {
  const kill = { at: undefined, activeAtKill: 0 };
  const third = options.awards / 3;
  const { result, row } = await runCase({
    kind: "queue", workers: 4, form: options.forms[0], label: "fault: queue × 4, one SIGKILLed",
    during: async ({ pool, queue, hub }) => {
      if (kill.at !== undefined || hub.proxy.stats.acceptedAt.length < third) return;
      kill.at = hub.proxy.stats.acceptedAt.length;
      kill.activeAtKill = (await queue.getJobCounts("active")).active;
      await stop(pool[0], "SIGKILL");
    },
  });
  await result.queue.close();
  // Exactly-once and "0 jobs failed" are runCase's lines above.
  line(kill.at !== undefined && result.killed === 1 && result.stalled > 0, "fault: a queue worker SIGKILLed a third of the way in, its jobs taken back by the others",
    `killed after ${kill.at} awards credited, ${kill.activeAtKill} jobs active then; ${result.stalled} jobs taken back as stalled, ${result.restarted} started more than once (429s too); the run took ${row.seconds.toFixed(1)} s`);
}

/** redis-server stopped (SIGTERM) a third of the way into a plain run of 4, started again on the same port 2 s later. */
async function redisRestartFault() {
  const restart = { at: undefined, downMs: 0 };
  const third = options.awards / 3;
  const { result, row } = await runCase({
    kind: "plain", workers: 4, form: options.forms[0], label: "fault: plain × 4, Redis restarted",
    during: async ({ hub }) => {
      if (restart.at !== undefined || hub.proxy.stats.acceptedAt.length < third) return;
      restart.at = hub.proxy.stats.acceptedAt.length;
      const down = performance.now();
      await stop(context.redis.child, "SIGTERM");
      await sleep(2_000);
      context.redis = await startRedis(context.redis.port);
      restart.downMs = performance.now() - down;
    },
  });
  const budgetNote = /^redis/.test(result.budget) ? "" : ` (budget ${result.budget}: these processes do not use Redis, so the restart cannot touch them)`;
  // Exactly-once and "0 awards failed" are runCase's lines above; it throws when the run does not finish.
  line(restart.at !== undefined && result.failed === 0, "fault: Redis restarted mid-run (plain × 4): the run finished, no award failed",
    `stopped after ${restart.at} awards credited, back after ${(restart.downMs / 1000).toFixed(1)} s; ${result.failed} failed; ${row.seconds.toFixed(1)} s${budgetNote}`);
}

// --- main --------------------------------------------------------------------------------------
const began = performance.now();
const rows = [];
await step("setup", async () => {
  const packed = await prepareConsumer();
  context.redis = await startRedis();
  context.connection = new Redis(context.redis.url, { maxRetriesPerRequest: null });
  context.connection.on("error", () => {}); // while Redis restarts; ioredis reconnects
  context.probed = new Map();
  const redisVersion = (await context.connection.info("server")).match(/redis_version:(\S+)/)[1];
  const server = await import(pathToFileURL(join(consumer, "node_modules/public-hub-sdk/dist/server/index.js")).href);
  const hasRedisBudget = typeof server.redisBudget === "function";
  console.log(`e2e shared budget: packed ${packed.sdk} and ${packed.cli}, redis-server ${redisVersion} on ${context.redis.url}, bullmq ${versionOf("bullmq")}`);
  console.log(`hub: public-hub mock --rate-limit ${LIMIT} (ideal ${idealSeconds} s for ${options.awards} awards); HUB_BUDGET=${options.budget}; ` +
    `public-hub-sdk/server ${hasRedisBudget ? "exports" : "does not export"} redisBudget; the queue worker ${queueBudget("redis").startsWith("redis") ? "reads" : "does not read"} HUB_BUDGET`);
  console.log(`matrix: ${options.matrix ? `${options.kinds.join(", ")} × ${options.workers.join(", ")} processes × ${options.forms.join(", ")}` : "none"}; faults: ${options.faults.join(", ") || "none"}${options.goals ? "; goals are gates" : ""}`);
});
try {
  if (context.redis) {
    if (options.matrix) {
      for (const kind of options.kinds) {
        for (const form of options.forms) {
          for (const workers of options.workers) {
            await step(`${kind} × ${workers}, ${form}`, async () => {
              const { row, result } = await runCase({ kind, workers, form });
              await result.queue?.obliterate({ force: true }).catch(() => {});
              await result.queue?.close();
              rows.push(row);
            });
          }
        }
      }
    }
    if (options.faults.includes("kill")) await step("fault: kill", killFault);
    if (options.faults.includes("redis-restart")) await step("fault: Redis restart", redisRestartFault);
  }
} finally {
  for (const child of children) await stop(child, "SIGKILL");
  context.connection?.disconnect();
}

if (context.probed?.size) {
  console.log("\nWhat the hub says (one accepted read, then one 429, per form):");
  for (const [form, said] of context.probed) console.log(`  ${form}: accepted → ${said.accepted}; 429 → ${said.refused}${form === "bare" ? " (Retry-After removed by the proxy)" : ""}`);
}
if (rows.length > 0) {
  console.log(`\nload average at the end: ${loadavg().map((l) => l.toFixed(1)).join(", ")} on ${cpus().length} cores`);
  console.log(`\n| kind | processes | limit form | budget | awards | award POSTs | 429s | requests per award | wall time | × ideal (${idealSeconds} s) | failed | exactly once |`);
  console.log("|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (const r of rows) {
    console.log(`| ${r.kind} | ${r.workers} | ${r.form} | ${r.budget.replace(/ \(fallback.*\)$/, " (fallback)")} | ${r.awards} | ${r.posts} | ${r.refused} | ${r.perAward.toFixed(2)} | ${r.seconds.toFixed(1)} s | ${r.ratio.toFixed(2)} | ${r.failed} | ${r.once ? "yes" : "**no**"} |`);
  }
  console.log("");
}
console.log(`e2e shared budget: ${tally.passed} passed, ${tally.failed} failed in ${((performance.now() - began) / 1000).toFixed(0)} s`);
process.exitCode = tally.failed === 0 ? 0 : 1;
