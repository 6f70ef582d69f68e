// One plain Node process of test/e2e/shared-budget.mjs: `awardMany` over its own slice of a
// campaign, 16 awards in flight, a journal file of its own — what a user without a queue writes.
// Copied into the consumer project next to the installed package and run there as
//
//   HUB_BASE_URL=… HUB_CLIENT_ID=… HUB_SLUG=… HUB_SECRET=… HUB_BUDGET=local|redis REDIS_URL=… \
//     node slice-worker.mjs slice.jsonl journal.jsonl
//
// HUB_BUDGET=redis (the default): one budget shared through Redis by every process of the key
// (`redisBudget` from public-hub-sdk/server). HUB_BUDGET=local: each process paces itself, the
// SDK's default. A package without `redisBudget` falls back to local and says so.
//
// It prints `budget: …`, then `ready: …` once its client is made, waits for a line on its
// standard input (so that every process starts sending at the same moment), runs, and prints
// `done: {summary as JSON}`. Exit 0 whatever the summary holds; 1 when the campaign threw.
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
// A namespace import: a named import of an export the package lacks would not even load.
import * as server from "public-hub-sdk/server";

const [slicePath, journalPath] = process.argv.slice(2);
if (!slicePath || !journalPath) {
  console.error("usage: node slice-worker.mjs <slice.jsonl> <journal.jsonl>");
  process.exit(2);
}
const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
};

const wanted = process.env.HUB_BUDGET || "redis";
if (wanted !== "redis" && wanted !== "local") throw new Error(`HUB_BUDGET must be redis or local, not ${JSON.stringify(wanted)}`);
let redis;
let budget;
if (wanted === "redis" && typeof server.redisBudget !== "function") {
  console.log("budget: local (fallback: no redisBudget in public-hub-sdk/server)");
} else if (wanted === "redis") {
  const { Redis } = await import("ioredis");
  redis = new Redis(env("REDIS_URL"));
  // Errors while Redis is away (a restart) are the budget's to handle; ioredis reconnects.
  redis.on("error", () => {});
  budget = server.redisBudget(redis);
  console.log("budget: redis");
} else {
  console.log("budget: local");
}

const client = new server.HubServerClient({
  baseUrl: env("HUB_BASE_URL"),
  clientId: env("HUB_CLIENT_ID"),
  hub: env("HUB_SLUG"),
  secret: env("HUB_SECRET"),
  ...(budget ? { budget } : {}),
});
const awards = readFileSync(slicePath, "utf8").split("\n").filter((text) => text.trim() !== "").map((text) => JSON.parse(text));
console.log(`ready: ${process.pid} with ${awards.length} awards`);

// Waits for the go (any line), or for the end of its input.
const input = createInterface({ input: process.stdin });
await new Promise((resolve) => {
  input.once("line", resolve);
  input.once("close", resolve);
});
input.close();

try {
  const summary = await client.awardMany(awards, { concurrency: 16, journal: journalPath });
  const failed = summary.failed.map((failure) => ({ ref: failure.award.ref, error: `${failure.error?.name}: ${failure.error?.message}` }));
  console.log(`done: ${JSON.stringify({ total: summary.total, applied: summary.applied, duplicates: summary.duplicates, skipped: summary.skipped, failed: failed.length, mismatched: summary.mismatched.length, firstFailures: failed.slice(0, 3) })}`);
} catch (error) {
  console.error(`campaign threw: ${error?.stack ?? error}`);
  process.exitCode = 1;
} finally {
  redis?.disconnect();
}
