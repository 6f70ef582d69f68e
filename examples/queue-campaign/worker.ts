/**
 * A worker process: takes award jobs from the queue and sends them with one `HubServerClient`.
 * Start as many as you like, on as many machines; see README.md for how many.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 HUB_BASE_URL=… HUB_CLIENT_ID=… HUB_SLUG=alpha HUB_SECRET=… \
 *     npx tsx examples/queue-campaign/worker.ts
 *
 * Optional: `WORKER_CONCURRENCY` (awards in flight in this process, default 16) and
 * `QUEUE_MAX_PER_SECOND` (a limit shared by all workers of the queue, e.g. the API's rate limit).
 */
import { pathToFileURL } from "node:url";
import { Queue, Worker, type RateLimiterOptions } from "bullmq";
import type { Redis } from "ioredis";
import { HubServerClient, type AwardInput } from "public-hub-sdk/server";
import { QUEUE_NAME, redisConnection } from "./award-queue";
import { workerClientOptions } from "./client-options";
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
 * BullMQ counts its limit in fixed windows, so `max` per 1 s can put `2 × max` requests in one
 * second across a window boundary. Tenth-of-a-second windows keep any second within 1.1 × the
 * 100 ms share, and 90 % of the limit leaves that margin below the API's own counter.
 */
export function queueLimiter(maxPerSecond: number): RateLimiterOptions {
  return { max: Math.max(1, Math.floor((maxPerSecond * 0.9) / 10)), duration: 100 };
}

/** Starts a worker; `close()` it to finish the jobs in flight and stop. */
export function startAwardWorker(options: AwardWorkerOptions): Worker<AwardInput, AwardJobResult> {
  const queueName = options.queueName ?? QUEUE_NAME;
  const queue = new Queue(queueName, { connection: options.connection });
  const worker = new Worker<AwardInput, AwardJobResult>(queueName, awardProcessor(options.client, (ms) => queue.rateLimit(ms)), {
    connection: options.connection,
    concurrency: options.concurrency ?? 16,
    ...(options.maxPerSecond ? { limiter: queueLimiter(options.maxPerSecond) } : {}),
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
  const connection = redisConnection();
  const worker = startAwardWorker({
    connection,
    client: new HubServerClient(workerClientOptions()),
    concurrency: Number(process.env.WORKER_CONCURRENCY ?? 16),
    maxPerSecond: Number(process.env.QUEUE_MAX_PER_SECOND ?? 0),
  });
  worker.on("failed", (job, error) => console.error(`award ${job?.data.ref ?? "?"} failed: ${error.message}`));
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
