/**
 * The producer: checks a campaign file, then puts one job per award on the queue. Safe to run
 * again (after a crash, or twice by mistake): a job's id is its award's `ref`.
 *
 *   REDIS_URL=redis://127.0.0.1:6379 npx tsx examples/queue-campaign/producer.ts awards.csv
 */
// @ts-nocheck

import { pathToFileURL } from "node:url";
import { Queue } from "bullmq";
import type { AwardInput } from "public-hub-sdk/server";
import { AWARD_JOB_OPTIONS, QUEUE_NAME, jobIdOf, redisConnection } from "./award-queue";
import { checkAwardFile, readAwards } from "./read-awards";

const BATCH = 500; // jobs per round trip to Redis

/**
 * Checks the whole file first (a bad line anywhere and nothing is enqueued, see `AwardFileError`),
 * then enqueues it in batches. Resolves to the number of awards in the file.
 */
export async function enqueueAwardFile(queue: Queue<AwardInput>, path: string): Promise<number> {
  const count = await checkAwardFile(path);
  let batch: AwardInput[] = [];
  const flush = async () => {
    await queue.addBulk(batch.map((award) => ({ name: "award", data: award, opts: { ...AWARD_JOB_OPTIONS, jobId: jobIdOf(award.ref) } })));
    batch = [];
  };
  for await (const entry of readAwards(path)) {
    if (!("award" in entry)) throw new Error(`${path} changed while it was enqueued (line ${entry.line}: ${entry.problem})`);
    batch.push(entry.award);
    if (batch.length === BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  return count;
}

async function main(path: string | undefined) {
  if (!path) throw new Error("usage: producer.ts <awards.csv | awards.jsonl>");
  const connection = redisConnection();
  const queue = new Queue<AwardInput>(QUEUE_NAME, { connection });
  try {
    const count = await enqueueAwardFile(queue, path);
    const counts = await queue.getJobCounts("waiting", "active", "delayed", "completed", "failed");
    console.log(`enqueued ${count} awards from ${path} on ${QUEUE_NAME}: ${JSON.stringify(counts)}`);
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv[2]).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
