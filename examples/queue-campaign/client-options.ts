/**
 * The worker's `HubServerClient` options, in one place: the key material from the environment,
 * the retry decision (see README.md, "Who retries what") and the budget every worker shares.
 */
import type { Redis } from "ioredis";
import { redisBudget, type HubServerClientOptions } from "public-hub-sdk/server";

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** A positive number from the environment, or `undefined` when unset. */
export function positiveNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === "") return undefined;
  const value = Number(text);
  if (!(value > 0)) throw new Error(`${name} must be a positive number (got ${JSON.stringify(text)})`);
  return value;
}

/**
 * Options of each worker's one client, from `HUB_BASE_URL`, `HUB_CLIENT_ID`, `HUB_SLUG`,
 * `HUB_SECRET`. The hub's limit is one budget for all workers, kept in `redis` (the queue's):
 * whatever the hub announces, or a pause it asks for, or the rate a silent limit allows, any
 * worker learns it and all obey. `HUB_BUDGET=local` lets each worker pace itself.
 */
export function workerClientOptions(env: NodeJS.ProcessEnv = process.env, redis?: Redis): HubServerClientOptions {
  const shared = env.HUB_BUDGET ?? "redis";
  if (shared !== "redis" && shared !== "local") throw new Error(`HUB_BUDGET must be redis or local (got ${JSON.stringify(shared)})`);
  return {
    ...(shared === "redis" && redis && { budget: redisBudget(redis) }),
    baseUrl: required(env, "HUB_BASE_URL"),
    clientId: required(env, "HUB_CLIENT_ID"),
    hub: required(env, "HUB_SLUG"),
    secret: required(env, "HUB_SECRET"),
    // One job attempt is one request: BullMQ retries the job, with its backoff spent in Redis
    // rather than in a worker slot. Two layers of retries would multiply (3 × 8 sends per award).
    retry: 0,
    // A job is one request of at most this long; the worker renews its lock meanwhile (worker.ts).
    timeout: 10_000,
  };
}
