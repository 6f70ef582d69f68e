/**
 * A worker process: takes award jobs from the queue and sends them with one `HubServerClient`.
 * Start as many as you like, on as many machines; see README.md for how many.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 HUB_BASE_URL=… HUB_CLIENT_ID=… HUB_SLUG=alpha HUB_SECRET=… \
 *     npx tsx examples/queue-campaign/worker.ts
 *
 * Optional: `WORKER_CONCURRENCY` (awards in flight in this process, default 16). The hub's limit
 * needs no setting: every worker's client shares one budget in Redis (client-options.ts).
 */
import { pathToFileURL } from "node:url";
import { Queue, Worker } from "bullmq";
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
}

/** Starts a worker; `close()` it to finish the jobs in flight and stop. */
export function startAwardWorker(options: AwardWorkerOptions): Worker<AwardInput, AwardJobResult> {
  const queueName = options.queueName ?? QUEUE_NAME;
  const queue = new Queue(queueName, { connection: options.connection });
  const worker = new Worker<AwardInput, AwardJobResult>(queueName, awardProcessor(options.client, (ms) => queue.rateLimit(ms)), {
    connection: options.connection,
    concurrency: options.concurrency ?? 16,
    // BullMQ makes every worker honour `queue.rateLimit` (our 429 pause) only when a limiter is
    // set: one that never binds (the hub's limit is the client's shared budget).
    limiter: { max: 1_000_000, duration: 1_000 },
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
  const connection = redisConnection();
  // The budget's own connection: BullMQ's blocks on its commands.
  const budget = redisConnection();
  const client = new HubServerClient(workerClientOptions(process.env, budget));
  const worker = startAwardWorker({
    connection,
    client,
    ...(concurrency ? { concurrency: Math.floor(concurrency) } : {}),
  });
  // Every failed attempt; BullMQ retries it unless it was the last or the error is unrecoverable.
  worker.on("failed", (job, error) => console.error(`award ${job?.data.ref ?? "?"}, attempt ${job?.attemptsMade ?? "?"}: ${error.message}`));
  worker.on("error", (error) => console.error(`worker error: ${error.message}`));
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, async () => {
      await worker.close(); // lets the awards in flight finish
      connection.disconnect();
      budget.disconnect();
    });
  }
  await worker.waitUntilReady();
  console.log(`ready: worker ${process.pid} on queue ${worker.name}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
