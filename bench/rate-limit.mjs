// `npm run bench` part: awards through a server that throttles with 429 and no Retry-After.
// One client, a pool of CONCURRENCY workers calling awardPoints. Reported: requests sent per
// award (goal ≤ 1.2), failures (goal 0), and wall time against the limit's ideal — the time the
// server's own bucket needs for N awards, (N − BURST) / RATE (goal ≤ 1.15×).
import { fork } from "node:child_process";
import { HubServerClient } from "../dist/server/index.js";

const ask = (child, message) => new Promise((resolve) => (child.once("message", resolve), child.send(message)));

export async function rateLimitBench({ smoke = false, mode = "silent" } = {}) {
  const announcing = mode !== "silent";
  const RATE = announcing ? 20 : smoke ? 50 : 100;
  const BURST = announcing ? 0 : 10;
  const N = announcing ? (smoke ? 40 : 300) : smoke ? 100 : 1_000;
  const CONCURRENCY = 16;
  const child = fork(new URL("./limited-server.mjs", import.meta.url), [String(RATE), String(BURST), mode]);
  const { port } = await new Promise((resolve) => child.once("message", resolve));
  try {
    const client = new HubServerClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, clientId: "pk_bench", hub: "alpha", secret: "bench-secret", logLevel: "off" });
    let next = 0;
    let failed = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < N) {
        const i = next++;
        await client.awardPoints({ wallet: `0x${i}`, amount: 1, ref: `bench-${i}` }).catch(() => failed++);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const wall = (performance.now() - started) / 1000;
    const { counts } = await ask(child, "counts");
    // An announcing hub's fixed window lets RATE through at once: the last window need not be waited out.
    const ideal = announcing ? (N - RATE) / RATE : (N - BURST) / RATE;
    return { N, RATE, BURST, CONCURRENCY, wall, ideal, failed, ...counts, amplification: counts.requests / N, slowdown: wall / ideal };
  } finally {
    child.kill();
  }
}

/** The rate-limit rows as Markdown lines. */
export async function rateLimitSection({ smoke = false } = {}) {
  const r = await rateLimitBench({ smoke });
  const verdict = (ok) => (smoke ? "(smoke)" : ok ? "✅" : "❌");
  const announced = [];
  for (const mode of ["ietf", "ietf-retry", "x-ratelimit", "x-ratelimit-ms", "express-draft7", "slowapi"]) {
    const a = await rateLimitBench({ smoke, mode });
    announced.push(`| ${mode} | **${a.amplification.toFixed(3)}** (${a.requests} requests, ${a.throttled} answered 429) ${verdict(a.amplification <= 1.1)} | **${a.failed}** ${verdict(a.failed === 0 && a.applied === a.N)} | ${a.slowdown.toFixed(2)}× (${a.wall.toFixed(1)} s vs ${a.ideal.toFixed(1)} s) |`);
  }
  return [
    `### Through a hub that announces its limit (bench/rate-limit.mjs)`,
    "",
    `${smoke ? 40 : 300} awards, concurrency 16, a fixed window of 20 per second announced in the answers' headers. Goals: ≤ 1.10 requests per award, none failed, no slower than the limit allows.`,
    "",
    "| headers | requests ÷ awards | failed | wall ÷ N/rate |",
    "|---|---|---|---|",
    ...announced,
    "",
    `### Through a rate limit (bench/rate-limit.mjs)`,
    "",
    `${r.N} awards, concurrency ${r.CONCURRENCY}, server bucket ${r.RATE}/s (burst ${r.BURST}), 429 without Retry-After.`,
    "",
    "| what | measured | goal |",
    "|---|---|---|",
    `| requests sent ÷ awards | **${r.amplification.toFixed(3)}** (${r.requests} requests, ${r.throttled} answered 429) | ≤ 1.2 ${verdict(r.amplification <= 1.2)} |`,
    `| failed awards | **${r.failed}** (${r.applied} applied, ${r.duplicates} duplicates) | 0 ${verdict(r.failed === 0 && r.applied === r.N)} |`,
    `| wall time ÷ the limit's ideal ((N − burst) ÷ rate) | **${r.slowdown.toFixed(2)}×** (${r.wall.toFixed(1)} s vs ${r.ideal.toFixed(1)} s) | ≤ 1.15× ${verdict(r.slowdown <= 1.15)} |`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await rateLimitSection({ smoke: process.argv.includes("--smoke") })).join("\n"));
}
