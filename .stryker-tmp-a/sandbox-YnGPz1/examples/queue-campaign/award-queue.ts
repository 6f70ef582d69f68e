/**
 * What the producer and the workers agree on: the queue's name, the Redis connection, each job's
 * id and its retry policy. See README.md, "Who retries what".
 */
// @ts-nocheck

import { Redis } from "ioredis";
import type { JobsOptions } from "bullmq";

/** The queue's name; one queue per hub key, since the API's rate limit is per key. */
export const QUEUE_NAME = process.env.QUEUE_NAME ?? "hub-awards";

/**
 * A Redis connection for BullMQ. `maxRetriesPerRequest: null` is what BullMQ asks of a worker's
 * connection: its blocking commands must wait for Redis to come back rather than fail.
 */
export function redisConnection(url = process.env.REDIS_URL ?? "redis://127.0.0.1:6379"): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/**
 * The job id of an award: its `ref`, so enqueuing the same award twice adds one job (BullMQ
 * ignores an `add` whose id exists). BullMQ refuses ids containing `:` (its key separator) and
 * ids that read as integers; refs often have both (`quest-42:0xabc`, `1001`). The prefix and
 * `encodeURIComponent` (which writes `:` as `%3A`) make any ref a valid id, one id per ref.
 */
export function jobIdOf(ref: string): string {
  return `award_${encodeURIComponent(ref)}`;
}

/**
 * BullMQ's retries: a job attempt is one request (the SDK client has `retry: 0`), and a failed
 * attempt that may succeed later (network, timeout, 408, 5xx) waits in Redis, not in a worker:
 * about 1, 2, 4 … 64 s (with jitter), 8 attempts in about two minutes. 429s do not use attempts
 * (the worker pauses the queue instead); refused awards fail at once (`UnrecoverableError`).
 */
export const AWARD_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: "exponential", delay: 1_000, jitter: 0.5 },
  // Completed jobs are kept a week: their ids make a re-run of the producer a no-op. After that,
  // a re-run would send again, and the server's `ref` still applies each award once. A kept job
  // is about 1 KB of Redis: for millions of awards, keep fewer (`count`) and rely on the `ref`.
  removeOnComplete: { age: 7 * 24 * 3600 },
  removeOnFail: false, // failed awards stay for a human to look at
} satisfies JobsOptions;
