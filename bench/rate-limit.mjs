// `npm run bench` part: awards through a server that throttles with 429 and no Retry-After.
// One client, a pool of CONCURRENCY workers calling awardPoints. Reported: requests sent per
// award (goal ≤ 1.2), failures (goal 0), and wall time against the limit's ideal — the time the
// server's own bucket needs for N awards, (N − BURST) / RATE (goal ≤ 1.15×).
import { fork } from "node:child_process";
import { HubServerClient } from "../dist/server/node.js";

const ask = (child, message) => new Promise((resolve) => (child.once("message", resolve), child.send(message)));

export async function rateLimitBench({ smoke = false } = {}) {
  const RATE = smoke ? 50 : 100;
  const BURST = 10;
  const N = smoke ? 100 : 1_000;
  const CONCURRENCY = 16;
  const child = fork(new URL("./limited-server.mjs", import.meta.url), [String(RATE), String(BURST)]);
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
    const ideal = (N - BURST) / RATE;
    return { N, RATE, BURST, CONCURRENCY, wall, ideal, failed, ...counts, amplification: counts.requests / N, slowdown: wall / ideal };
  } finally {
    child.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await rateLimitBench({ smoke: process.argv.includes("--smoke") });
  console.log(r);
}
