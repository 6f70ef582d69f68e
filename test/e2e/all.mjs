// `npm run e2e`: every end-to-end suite, one after another (they share the machine's two cores and
// the packed tarball, which the first one builds). Each suite's output streams through; a suite
// that fails does not stop the others. Ends with one line per suite and exits 1 if any failed.
// `node test/e2e/all.mjs runtimes campaign` runs only the named suites.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const SUITES = {
  // Node 20/22/24, Bun, Deno, workerd and Chromium on the packed package; packaging; bundle budget.
  runtimes: "run.mjs",
  // Where users run it: a real nginx, a Next.js app-router app, redirects, caches, resets.
  "real-world": "real-world.mjs",
  // The TanStack Query example built with Vite, in Chromium over real CORS.
  "react-query": "react-query.mjs",
  // Many workers on BullMQ and a real Redis: one SIGKILLed mid-campaign, every award once.
  queue: "queue-campaign.mjs",
  // The public-hub CLI: a campaign through nginx limit_req, SIGKILLed, resumed.
  campaign: "campaign.mjs",
  profile: "profile-round-trip.mjs", // doctor --profile on express, Fastify and NestJS hubs, the mock from each profile: both observed alike.
  "unique-index": "unique-index.mjs", // awardMany on DRF, FastAPI, Flask and Hono hubs whose unique index refuses a reused ref: duplicates, a lost answer, a journal's rerun.
  // One budget per hub key through Redis: queue workers and plain processes, a worker killed, Redis
  // restarted. A short matrix here (CI's 90 minutes); `npm run e2e:budget` runs the whole one.
  budget: ["shared-budget.mjs", "--workers=1,4", "--forms=ietf,ietf-draft7,bare", "--awards=600"],
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in SUITES));
if (unknown.length > 0) {
  console.error(`unknown suite(s): ${unknown.join(", ")}; known: ${Object.keys(SUITES).join(", ")}`);
  process.exit(2);
}

const results = [];
for (const [name, suite] of Object.entries(SUITES)) {
  const [file, ...args] = [suite].flat();
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const started = performance.now();
  console.log(`\n=== e2e suite: ${name} (test/e2e/${file})`);
  const child = spawn(process.execPath, [fileURLToPath(new URL(file, import.meta.url)), ...args], { stdio: "inherit" });
  const code = await new Promise((resolve) => child.on("close", (exit, signal) => resolve(exit ?? signal)));
  results.push({ name, code, seconds: (performance.now() - started) / 1000 });
}

console.log("\n=== e2e suites");
for (const { name, code, seconds } of results) console.log(`${code === 0 ? "PASS" : "FAIL"} ${name} (${seconds.toFixed(0)} s)${code === 0 ? "" : ` — exit ${code}`}`);
const failed = results.filter((result) => result.code !== 0).length;
console.log(`e2e suites: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
