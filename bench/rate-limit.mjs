// `npm run bench` part: awards through a server that throttles with 429 and no Retry-After.
// One client, a pool of CONCURRENCY workers calling awardPoints. Reported: requests sent per
// award (goal ≤ 1.2), failures (goal 0), and wall time against the limit's ideal — the time the
// server's own bucket needs for N awards, (N − BURST) / RATE (goal ≤ 1.15×).
import { fork } from "node:child_process";
import { HubServerClient } from "../dist/server/index.js";

const ask = (child, message) => new Promise((resolve) => (child.once("message", resolve), child.send(message)));

export async function rateLimitBench({ smoke = false, mode = "silent", concurrency = 16, n } = {}) {
  const announcing = mode !== "silent";
  const RATE = announcing ? 20 : smoke ? 50 : 100;
  const BURST = announcing ? 0 : 10;
  const N = n ?? (announcing ? (smoke ? 40 : 300) : smoke ? 100 : 1_000);
  const CONCURRENCY = concurrency;
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
  // Django REST framework's throttle says only `Retry-After`, in whole seconds: 500 awards at 16 and at 64 (issue 41's figures; goals ≤ 1.10 and ≤ 1.15 requests per award, ≤ 1.15× the ideal).
  const runs = [
    ...["ietf", "ietf-retry", "x-ratelimit", "x-ratelimit-ms", "express-draft7", "slowapi"].map((mode) => ({ mode, label: mode, goal: 1.1 })),
    ...[16, 64].map((concurrency) => ({ mode: "drf", label: `drf (Retry-After only), concurrency ${concurrency}, ${smoke ? 40 : 500} awards`, concurrency, n: smoke ? 40 : 500, goal: concurrency === 16 ? 1.1 : 1.15 })),
  ];
  for (const { label, goal, ...run } of runs) {
    const a = await rateLimitBench({ smoke, ...run });
    announced.push(`| ${label} | **${a.amplification.toFixed(3)}** (${a.requests} requests, ${a.throttled} answered 429) ${verdict(a.amplification <= goal)} | **${a.failed}** ${verdict(a.failed === 0 && a.applied === a.N)} | ${a.slowdown.toFixed(2)}× (${a.wall.toFixed(1)} s vs ${a.ideal.toFixed(1)} s) ${verdict(a.slowdown <= 1.15)} |`);
  }
  return [
    `### Through a hub that announces its limit (bench/rate-limit.mjs)`,
    "",
    `${smoke ? 40 : 300} awards (unless the row says), concurrency 16, 20 per second: a fixed window announced in the answers' headers, or DRF's sliding window that says only \`Retry-After\`. Goals: ≤ 1.10 requests per award (≤ 1.15 at concurrency 64), none failed, ≤ 1.15× the ideal.`,
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
