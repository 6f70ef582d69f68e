/**
 * A worker process: takes award jobs from the queue and sends them with one `HubServerClient`.
 * Start as many as you like, on as many machines; see README.md for how many.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 HUB_BASE_URL=… HUB_CLIENT_ID=… HUB_SLUG=alpha HUB_SECRET=… \
 *     npx tsx examples/queue-campaign/worker.ts
 *
 * Optional: `WORKER_CONCURRENCY` (awards in flight in this process, default 16), and
 * `QUEUE_MAX_PER_SECOND` (the API's limit, shared by all workers of the queue through Redis).
 */
// @ts-nocheck

import { pathToFileURL } from "node:url";
import { Queue, Worker, type RateLimiterOptions } from "bullmq";
import type { Redis } from "ioredis";
import { HubServerClient, type AwardInput } from "public-hub-sdk/server";
import { QUEUE_NAME, redisConnection } from "./award-queue";
import { positiveNumber, workerClientOptions } from "./client-options";
import { awardProcessor, type AwardJobResult } from "./process-award";

/** What a worker needs; everything else has a default. */
export interface AwardWorkerOptions {
  connection: Redis;
  client: HubServerClient;
  queueName?: string;
  /** Awards in flight in this process. */
  concurrency?: number;
  /** Jobs per second for the whole queue, all workers together (kept in Redis by BullMQ). */
  maxPerSecond?: number;
}

/**
 * BullMQ's limiter for an API limit of `perSecond` requests. BullMQ counts jobs in fixed windows,
 * so any one second can hold the jobs of `1000 / duration + 1` windows: with 100 ms windows that
 * is 11 of them, so `max` is 90 % of the limit ÷ 11 (rounded down). The 10 %
 * left over absorbs the jitter between a job's start and its request's arrival. Below 13 requests
 * per second: one job per window, with windows long enough for the same bound.
 */
export function queueLimiter(perSecond: number): RateLimiterOptions {
  const budget = perSecond * 0.9;
  const max = Math.floor(budget / 11);
  if (max >= 1) return { max, duration: 100 };
  return { max: 1, duration: budget > 1 ? Math.ceil(1000 / (budget - 1)) : 1001 };
}

/** Starts a worker; `close()` it to finish the jobs in flight and stop. */
export function startAwardWorker(options: AwardWorkerOptions): Worker<AwardInput, AwardJobResult> {
  const queueName = options.queueName ?? QUEUE_NAME;
  const queue = new Queue(queueName, { connection: options.connection });
  const worker = new Worker<AwardInput, AwardJobResult>(queueName, awardProcessor(options.client, (ms) => queue.rateLimit(ms)), {
    connection: options.connection,
    concurrency: options.concurrency ?? 16,
    // BullMQ makes every worker honour `queue.rateLimit` (our 429 pause) only when a limiter is
    // set; without a limit of our own, one that never binds.
    limiter: options.maxPerSecond ? queueLimiter(options.maxPerSecond) : { max: 1_000_000, duration: 1_000 },
    // A killed worker's jobs go back to the queue once their lock expires (a live worker renews
    // its locks every 5 s). Short, because a job is one request of at most 10 s (client-options.ts).
    lockDuration: 10_000,
    stalledInterval: 5_000,
    maxStalledCount: 3,
  });
  worker.on("closed", () => void queue.close());
  return worker;
}

async function main() {
  const concurrency = positiveNumber(process.env, "WORKER_CONCURRENCY");
  const maxPerSecond = positiveNumber(process.env, "QUEUE_MAX_PER_SECOND");
  const client = new HubServerClient(workerClientOptions());
  const connection = redisConnection();
  const worker = startAwardWorker({
    connection,
    client,
    ...(concurrency ? { concurrency: Math.floor(concurrency) } : {}),
    ...(maxPerSecond ? { maxPerSecond } : {}),
  });
  // Every failed attempt; BullMQ retries it unless it was the last or the error is unrecoverable.
  worker.on("failed", (job, error) => console.error(`award ${job?.data.ref ?? "?"}, attempt ${job?.attemptsMade ?? "?"}: ${error.message}`));
  worker.on("error", (error) => console.error(`worker error: ${error.message}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await worker.close(); // lets the awards in flight finish
      connection.disconnect();
    });
  }
  await worker.waitUntilReady();
  console.log(`ready: worker ${process.pid} on queue ${worker.name}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
