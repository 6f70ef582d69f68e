/**
 * The worker's `HubServerClient` options, in one place: the key material from the environment,
 * the retry decision (see README.md, "Who retries what") and this process's rate gate.
 */
// @ts-nocheck

import type { HubServerClientOptions } from "public-hub-sdk/server";

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
 * `HUB_SECRET`. The API's limit is kept by the queue's limiter (`QUEUE_MAX_PER_SECOND`, worker.ts).
 */
export function workerClientOptions(env: NodeJS.ProcessEnv = process.env): HubServerClientOptions {
  return {
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
