/**
 * One job: one award. The error decides what BullMQ does next: retry later, pause the queue for
 * a 429, or fail the job for good.
 */
import { UnrecoverableError, Worker, type Job } from "bullmq";
import { HubApiError, HubConnectionError, RateLimitError, type AwardInput, type HubServerClient } from "public-hub-sdk/server";

/** What a completed job keeps in Redis: whether the server had already applied this `ref`. */
export interface AwardJobResult {
  duplicate: boolean;
  balance: number | undefined;
}

/** How long to pause the queue for a 429 without `Retry-After`. */
export const DEFAULT_RATE_LIMIT_PAUSE_MS = 1_000;

/**
 * The job processor. `pauseQueue(ms)` pauses every worker of the queue (BullMQ's `queue.rateLimit`),
 * since a 429 means the key, which they all share, is over its limit.
 */
export function awardProcessor(client: HubServerClient, pauseQueue: (ms: number) => Promise<void>) {
  return async (job: Pick<Job<AwardInput>, "data">): Promise<AwardJobResult> => {
    try {
      // `duplicate` is the SDK's reading of the hub's answer (a flag, `Idempotent-Replayed`, 208, a 409 naming a duplicate).
      const { data, duplicate } = await client.awardPoints(job.data).withResponse();
      const balance = (data as { balance?: unknown } | null)?.balance;
      return { duplicate, balance: typeof balance === "number" ? balance : undefined };
    } catch (error) {
      throw await nextStep(error, pauseQueue);
    }
  };
}

async function nextStep(error: unknown, pauseQueue: (ms: number) => Promise<void>): Promise<Error> {
  if (error instanceof RateLimitError) {
    // Back to the waiting list without using an attempt; nobody sends until the pause is over.
    await pauseQueue(error.retryAfterMs ?? DEFAULT_RATE_LIMIT_PAUSE_MS);
    return Worker.RateLimitError();
  }
  // May succeed later: BullMQ retries with backoff, and the same `ref` makes a resend safe even
  // when the lost attempt was applied.
  if (error instanceof HubConnectionError) return error;
  if (error instanceof HubApiError && (error.status === 408 || error.status >= 500)) return error;
  // Refused (validation, 400, 401, 403…) or an answer we cannot read: sending again gives the
  // same result. The message names the status and request id, never the secret.
  const detail = error instanceof HubApiError && error.requestId ? ` (request id ${error.requestId})` : "";
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new UnrecoverableError(`${reason}${detail}`);
}
