// @ts-nocheck
import type { AwardInput } from "../award-schema";
import { awardHash } from "./award-hash";
import { knownSize, pullFrom, type AwardSource } from "./award-source";
import { CampaignCounter } from "./campaign-counter";
import type { CampaignContext } from "./campaign-context";
import { RefRegistry } from "./ref-registry";
import type { AwardSender, CampaignInFlight, CampaignJournal, CampaignOptions, CampaignSummary } from "./types";

/**
 * Sends every award of `awards` with `send`, `concurrency` at a time, reading the input only as
 * fast as awards are sent. See `HubServerClient.awardMany` for the contract.
 */
export async function awardMany(
  awards: AwardSource,
  send: AwardSender,
  options: CampaignOptions,
  context: CampaignContext,
): Promise<CampaignSummary> {
  // The one way to dry-run is dryRunAwards: a `dryRun` here (an older option) must not send for real.
  if ("dryRun" in options && !context.dryRun) throw context.invalid("campaign options", ["dryRun"], "awardMany has no dryRun: use dryRunAwards, which sends nothing");
  const concurrency = checkConcurrency(options.concurrency ?? context.defaults.concurrency, context);
  const dryRun = context.dryRun ?? false;
  if (options.signal?.aborted) throw context.aborted({ total: 0, applied: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun }, options.signal.reason, []);
  const maxFailures = checkMaxFailures(options.maxFailures ?? context.defaults.maxFailures, context);
  const registry = new RefRegistry();
  const { journal, ownJournal } = await openJournal(options.journal, context);
  // One controller for the whole run: the caller's signal, or a fatal error, stops every worker.
  const controller = new AbortController();
  let fatal: { error: unknown } | undefined;
  const stop = (error: unknown) => {
    fatal ??= { error };
    controller.abort(error);
  };
  // Failures in a row that no later award can escape (a wrong key or secret…); a success resets it.
  let systemic = 0;
  let stopped: { reason: string; error: Error } | undefined;
  // Awards in flight that the campaign's end (an abort, an early stop) cut short.
  const interrupted: CampaignInFlight[] = [];
  const counter = new CampaignCounter(options.total ?? knownSize(awards), options.onProgress, stop);
  const source = pullFrom(awards);
  // Listened to on options.signal only (an abort event fires once; the listener is removed when done).
  const onAbort = () => controller.abort(options.signal!.reason);
  options.signal?.addEventListener("abort", onAbort);

  const recordings = new Set<Promise<void>>();
  const settle = async (item: AwardInput, index: number) => {
    let ref: string;
    try {
      ref = context.parseAward(item).ref;
    } catch (error) {
      return counter.fail({ index, award: item, error: asError(error) });
    }
    const hash = awardHash(item);
    const claim = registry.claim(ref, hash);
    if (claim.kind === "duplicate") return counter.skip();
    if (claim.kind === "conflict") return counter.fail({ index, award: item, error: context.conflict(ref, claim.from) });
    if (dryRun) return counter.wouldSend();
    counter.start();
    try {
      await send(item, { signal: controller.signal });
    } catch (error) {
      // Applied (a 2xx) with an answer that does not fit schemas.award: a success, listed. Never a
      // failure: a run again would count an award the server already holds as not done.
      if (context.appliedMismatch(error)) {
        counter.mismatch({ index, award: item, error: asError(error) });
      } else {
        // Aborted with the campaign: not a failure of the award, which a resumed run sends again. It
        // may have been applied (the transport's verdict; any other sender's error: maybe), and a
        // run again settles it through its ref.
        if (controller.signal.aborted) {
          interrupted.push({ index, award: item, mayHaveBeenApplied: (error as { mayHaveBeenApplied?: unknown } | undefined)?.mayHaveBeenApplied !== false });
          return counter.interrupt();
        }
        counter.fail({ index, award: item, error: asError(error) }, true);
        const reason = context.systemicCause(error);
        if (reason === undefined || ++systemic < maxFailures) return;
        stopped ??= { reason, error: asError(error) };
        return void controller.abort(stopped.error);
      }
    }
    systemic = 0;
    if (!journal) return counter.apply();
    // The worker goes on while the line is written (a group commit takes many at once); the award
    // counts as applied once it is on disk. Up to `concurrency` lines wait, then the worker does too:
    // checked before adding one, in a loop, since one line written wakes every worker waiting.
    while (recordings.size >= concurrency) await Promise.race(recordings);
    const recording: Promise<void> = Promise.resolve()
      .then(() => journal.record({ ref, hash, status: "applied" }))
      .then(
        () => counter.apply(),
        (error: unknown) => {
          // Applied but not recorded: going on would make the journal lie about what is done.
          stop(error);
          counter.interrupt();
        },
      )
      .finally(() => recordings.delete(recording));
    recordings.add(recording);
  };

  const worker = async () => {
    while (!controller.signal.aborted) {
      let item: IteratorResult<AwardInput>;
      try {
        const next = source.next();
        item = next instanceof Promise ? await next : next;
      } catch (error) {
        return stop(error);
      }
      if (item.done) return counter.endOfInput();
      if (controller.signal.aborted) return; // read but not started: a resumed run sends it
      await settle(item.value, counter.read());
    }
  };

  try {
    if (journal) for await (const entry of await journal.load()) registry.remember(entry.ref, entry.hash);
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    while (recordings.size > 0) await Promise.all(recordings);
    options.signal?.removeEventListener("abort", onAbort);
    await source.close().catch(() => undefined);
    if (ownJournal) await journal.close();
  }
  if (fatal) throw fatal.error;
  const cutShort = interrupted.sort((a, b) => a.index - b.index);
  if (stopped) throw context.stopped(stopped.reason, systemic, counter.summary(dryRun), stopped.error, cutShort);
  // With no fatal error and no stop, only options.signal aborts the controller.
  if (controller.signal.aborted) throw context.aborted(counter.summary(dryRun), options.signal!.reason, cutShort);
  return counter.summary(dryRun);
}

/** The campaign's journal; one it opened from a path (`ownJournal`) it also closes. */
type Journal = { journal: CampaignJournal | undefined; ownJournal: false } | { journal: Required<CampaignJournal>; ownJournal: true };

async function openJournal(journal: CampaignOptions["journal"], context: CampaignContext): Promise<Journal> {
  if (journal === undefined || typeof journal === "object") return { journal, ownJournal: false };
  const invalid = (message: string) => context.invalid("campaign options", ["journal"], message);
  if (typeof journal !== "string" || journal === "") throw invalid("journal must be a file path or a CampaignJournal");
  if (!context.openJournal) throw invalid("a journal path needs the Node build of public-hub-sdk/server; pass a CampaignJournal object here");
  return { journal: await context.openJournal(journal), ownJournal: true };
}

function checkMaxFailures(value: unknown, context: CampaignContext): number {
  if (value === Infinity || (Number.isInteger(value) && (value as number) >= 1)) return value as number;
  throw context.invalid("campaign options", ["maxFailures"], "maxFailures must be an integer ≥ 1, or Infinity");
}

function checkConcurrency(value: unknown, context: CampaignContext): number {
  if (Number.isInteger(value) && (value as number) >= 1) return value as number;
  throw context.invalid("campaign options", ["concurrency"], "concurrency must be an integer ≥ 1");
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
