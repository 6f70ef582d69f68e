// Campaign benchmark, side by side in one run (a section of bench/run.mjs, or alone with
// `npm run bench:campaign`): `awardMany` against a hand-written p-limit loop over `awardPoints` at
// the same concurrency, on the loopback server of bench/server.mjs; then the process's RSS sampled
// over a dry run of 1,000,000 generated awards (the input is streamed; what remains is the table of refs).
// `--smoke` runs a few short rounds only, to keep the bench working.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pLimit from "p-limit";
import { dryRunAwards, HubServerClient } from "../dist/server/index.js";

const SMOKE = process.argv.includes("--smoke");
const ROUNDS = SMOKE ? 2 : 21;
const AWARDS = SMOKE ? 300 : 1_000;
const CONCURRENCY = 16;
const DRY_ROWS = SMOKE ? 100_000 : 1_000_000;
const SAMPLES = 10;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fmt = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));
const mb = (bytes) => (bytes / 2 ** 20).toFixed(1);

async function startServer() {
  const child = fork(new URL("./server.mjs", import.meta.url), { stdio: "inherit" });
  const { port } = await new Promise((resolve) => child.once("message", resolve));
  return { baseUrl: `http://127.0.0.1:${port}/api/v1`, stop: () => child.kill() };
}

let batch = 0;
const awards = (tag) => {
  batch++;
  return Array.from({ length: AWARDS }, (_, i) => ({ wallet: `0x${(i % 500).toString(16).padStart(40, "0")}`, amount: 1 + (i % 50), reason: "season 7", ref: `${tag}-${batch}-${i}` }));
};

/** Per round, both tasks send AWARDS awards, in alternating order; returns the median ratio of throughputs. */
async function compare(tasks) {
  const rates = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  for (let round = -1; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? Object.keys(tasks) : Object.keys(tasks).reverse();
    for (const name of order) {
      const input = awards(name);
      const started = performance.now();
      await tasks[name](input);
      if (round >= 0) rates[name].push(AWARDS / ((performance.now() - started) / 1000)); // round -1 warms up
    }
  }
  return rates;
}

function ratioRow(what, name, rates, sdk, base, goal) {
  const ratios = rates[sdk].map((rate, i) => rate / rates[base][i]);
  const ratio = median(ratios);
  const verdict = goal === undefined ? "(informative)" : `≥ ${goal}× ${ratio >= goal ? "✅" : "❌"}`;
  return `| ${what} | ${name}: ${fmt(median(rates[sdk]))}/s | p-limit loop: ${fmt(median(rates[base]))}/s | **${ratio.toFixed(2)}×** (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}) | ${verdict} |`;
}

/** The peak RSS of a dry run of DRY_ROWS awards, in a fresh process. */
async function dryRunRow() {
  // In a fresh process, so that memory the comparison above left behind does not blur the line.
  const child = fork(new URL(import.meta.url), ["--dry-run-child", ...(SMOKE ? ["--smoke"] : [])], { execArgv: ["--expose-gc"], stdio: "inherit" });
  const result = await new Promise((resolve, reject) => {
    child.once("message", resolve);
    child.once("exit", (code) => reject(new Error(`dry-run child exited with ${code}`)));
  });
  child.kill();
  return result;
}

async function dryRunChild() {
  function* generate() {
    for (let i = 0; i < DRY_ROWS; i++) yield { wallet: `0x${(i % 5000).toString(16).padStart(40, "0")}`, amount: 1 + (i % 50), ref: `season-7:${i}` };
  }
  // The peak RSS, sampled every 20 ms and every DRY_ROWS / SAMPLES awards: every ref is remembered
  // (a table of ref hash to fingerprint) to catch a conflict, so memory grows with the input's refs.
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));
  const timer = setInterval(sample, 20);
  const started = performance.now();
  const summary = await dryRunAwards(generate(), { onProgress: (p) => p.done % (DRY_ROWS / SAMPLES) === 0 && sample() });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  sample();
  if (summary.wouldSend !== DRY_ROWS) throw new Error(`dry run checked ${summary.wouldSend} of ${DRY_ROWS}`);
  const ok = SMOKE ? "(smoke: 100k awards)" : peak <= 256 * 2 ** 20 ? "✅" : "❌";
  process.send(`| dry run of ${fmt(DRY_ROWS)} awards, memory | peak RSS ${mb(peak)} MB; ${fmt(DRY_ROWS / seconds)} awards/s | — | — | peak RSS ≤ 256 MB ${ok} |`);
}

/** The campaign rows as Markdown lines: awardMany against a p-limit loop, and the dry run's memory. */
export async function campaignSection() {
  const server = await startServer();
  const dir = mkdtempSync(join(tmpdir(), "hub-bench-journal-"));
  try {
    const client = new HubServerClient({ baseUrl: server.baseUrl, clientId: "pk_bench", hub: "alpha", secret: "bench-secret" });
    let journals = 0;
    const rates = await compare({
      awardMany: (input) => client.awardMany(input, { concurrency: CONCURRENCY }),
      journal: (input) => client.awardMany(input, { concurrency: CONCURRENCY, journal: join(dir, `${journals++}.journal`) }),
      pLimit: (input) => {
        const limit = pLimit(CONCURRENCY);
        return Promise.all(input.map((award) => limit(() => client.awardPoints(award))));
      },
    });
    const rows = [
      ratioRow(`campaign of ${fmt(AWARDS)} awards, concurrency ${CONCURRENCY}, no limit`, "awardMany", rates, "awardMany", "pLimit", 0.9),
      ratioRow("same, with a file journal (fdatasync per group of lines)", "awardMany + journal", rates, "journal", "pLimit"),
      await dryRunRow(),
    ];
    return [
      `### Campaigns (bench/campaign.mjs)`,
      "",
      `${ROUNDS} rounds of ${fmt(AWARDS)} awards per task, order alternating${SMOKE ? " (smoke: short rounds, not a measurement)" : ""}; ratio = awardMany ÷ p-limit loop of the per-round throughputs, median (min–max).`,
      "",
      "| what | SDK | baseline in the same run | ratio | goal |",
      "|---|---|---|---|---|",
      ...rows,
    ];
  } finally {
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv.includes("--dry-run-child")) {
  await dryRunChild();
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await campaignSection()).join("\n"));
}
