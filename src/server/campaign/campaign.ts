/**
 * The campaign engine, loaded on the first `awardMany` or `dryRunAwards`: `concurrency` workers
 * share one reader of the input, each award is checked, matched against the refs already seen,
 * sent, and journaled once the hub holds it. See `HubServerClient.awardMany` for the contract.
 */
import type { AwardInput } from "../award-schema";
import type { CampaignContext, OpenedJournal } from "./errors";
import type { AwardSender, AwardSource, CampaignFailure, CampaignInFlight, CampaignJournal, CampaignOptions, CampaignProgress, CampaignSummary, DryRunOptions, JournalEntry } from "./types";

/** Sends every award of `awards` with `send`, `concurrency` at a time, reading the input only as fast as awards are sent. */
export async function awardMany(awards: AwardSource, send: AwardSender, options: CampaignOptions = {}, context: CampaignContext): Promise<CampaignSummary> {
  context.check(awards, options, false);
  return run(awards, send, options, context, false);
}

/**
 * A dry run with no key at all: validates every award, finds `ref` conflicts and reads the journal,
 * exactly as `awardMany` would, and sends nothing. Its counts are named for what they are:
 * `wouldSend`, never `applied`. It checks no credentials.
 */
export async function dryRunAwards(awards: AwardSource, options: DryRunOptions = {}, context: CampaignContext): Promise<CampaignSummary> {
  context.check(awards, options, true);
  const { hub: _hub, ...rest } = options;
  // One worker: nothing waits on the network, and the awards are checked in input order.
  return run(awards, () => Promise.reject(new Error("a dry run sends nothing")), { ...rest, concurrency: 1 }, context, true);
}

async function run(awards: AwardSource, send: AwardSender, options: CampaignOptions, context: CampaignContext, dryRun: boolean): Promise<CampaignSummary> {
  const { concurrency = context.defaults.concurrency, maxFailures = context.defaults.maxFailures, outageTimeout = context.defaults.outageTimeout, signal } = options;
  const counts = { total: 0, applied: 0, duplicates: 0, wouldSend: 0, skipped: 0, failed: [] as CampaignFailure[], mismatched: [] as CampaignFailure[], dryRun };
  const summary = (): CampaignSummary => ({ ...counts, failed: [...counts.failed], mismatched: [...counts.mismatched] });
  if (signal?.aborted) throw context.stopped({ reason: "aborted", failures: 0, summary: summary(), cause: signal.reason, inFlight: [] });
  // One controller for the whole run: the caller's signal, an early stop or a fatal error stops every
  // worker. It hears the signal from here on: an abort while the journal opens stops the run too.
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener("abort", onAbort);
  // Waits that end when the run stops, so that a worker waiting for a row (a queue, a pipe) or for
  // the hub stops waiting. Each leaves the set when it ends: a promise shared by every wait
  // (`Promise.race`) would keep each one, and its row, until the end of the run.
  const waits = new Set<() => void>();
  controller.signal.addEventListener("abort", () => waits.forEach((end) => end()));
  /** `promise`, or the input's end as soon as the run stops. */
  const untilStopped = <T>(promise: Promise<T>) =>
    new Promise<T | IteratorReturnResult<undefined>>((resolve, reject) => {
      const end = () => resolve({ done: true, value: undefined });
      if (controller.signal.aborted) return end();
      waits.add(end);
      promise.then(resolve, reject).finally(() => waits.delete(end));
    });
  let journal: (CampaignJournal & Pick<OpenedJournal, "lock">) | undefined;
  // Every ref met, with its award's fingerprint: the journal's, then this run's.
  const refs = new Refs();
  let fatal: { error: unknown } | undefined;
  const stop = (error: unknown) => {
    fatal ??= { error };
    controller.abort(error);
  };
  // Failures in a row that no later award can escape (a wrong key or secret…); a success resets it.
  let systemic = 0;
  let stopped: { reason: string; error: Error; failures: number } | undefined;
  // Whether the hub answered in this run: until it has, a refused connection or a host that does
  // not resolve says the address is wrong (systemic); after, that the hub is away (an outage).
  let reached = false;
  // While the hub is away, one award (the prober) is sent again with a backoff, the others wait for
  // it, and no new row is taken. Any answer of the hub ends it.
  let outage: { since: number; delay: number; prober: number; over: Promise<void>; end: () => void } | undefined;
  const answered = () => {
    reached = true;
    outage?.end();
    outage = undefined;
  };
  /** Resolves after `ms`, or at once when the run stops (its timer cleared: nothing holds the process). */
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        waits.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      waits.add(end);
    });
  /** Waits until award `index`, which met the outage `error`, is to be sent again; stops the run past `outageTimeout`. */
  const pause = async (index: number, error: unknown) => {
    if (!outage) {
      let end = () => {};
      const over = new Promise<void>((resolve) => (end = resolve));
      outage = { since: performance.now(), delay: 250, prober: index, over, end };
    }
    if (outage.prober !== index) return void (await untilStopped(outage.over));
    const left = outage.since + outageTimeout - performance.now();
    if (left <= 0) {
      stopped ??= { reason: "outage", error: asError(error), failures: 0 };
      return controller.abort(error);
    }
    const delay = Math.min(outage.delay, left);
    outage.delay = Math.min(outage.delay * 2, 5_000);
    await wait(delay);
  };
  const interrupted: CampaignInFlight[] = [];
  let inFlight = 0;
  let total = options.total ?? (Array.isArray(awards) ? awards.length : undefined);
  const started = performance.now();
  const samples = [{ at: started, done: 0 }];
  const report = () => {
    if (!options.onProgress && !context.observe) return;
    const done = counts.applied + counts.duplicates + counts.wouldSend + counts.skipped + counts.failed.length;
    const at = performance.now();
    // The rate over about the last 5 s: recent enough to show a rate limit biting, smooth enough not to jump.
    if (at - samples.at(-1)!.at >= 250) samples.push({ at, done });
    while (samples.length > 1 && at - samples[1]!.at > 5_000) samples.shift();
    const rate = at > samples[0]!.at ? ((done - samples[0]!.done) * 1000) / (at - samples[0]!.at) : 0;
    const { applied, duplicates, wouldSend, skipped } = counts;
    try {
      const progress: CampaignProgress = { done, total, applied, duplicates, wouldSend, skipped, failed: counts.failed.length, inFlight, rate, elapsedMs: at - started };
      context.observe?.(progress);
      options.onProgress?.(progress);
    } catch (error) {
      stop(error); // a throwing onProgress stops the campaign with its error
    }
  };
  const count = (kind: "applied" | "duplicates" | "wouldSend" | "skipped") => {
    counts[kind]++;
    report();
  };
  const fail = (failure: CampaignFailure) => {
    counts.failed.push(failure);
    report();
  };
  const next = reader(awards);

  // Journal lines being written: a worker goes on while its line is written (a group commit takes
  // many at once), and the award counts once it is on disk. At most `concurrency` lines wait.
  const recordings = new Set<Promise<void>>();
  const settle = async (item: AwardInput, index: number) => {
    let award: AwardInput;
    try {
      award = context.parseAward(item);
    } catch (error) {
      return fail({ index, award: item, error: asError(error) });
    }
    const hash = fingerprint(award);
    const short = hash % JOURNALED;
    const known = refs.get(award.ref);
    // An identical repeat shares the first's fate; a different award under a used ref is refused.
    if (known !== 0 && known % JOURNALED === short) return count("skipped");
    if (known !== 0) return fail({ index, award: item, error: context.conflict(award.ref, known >= MET + JOURNALED ? "journal" : "run") });
    refs.set(award.ref, MET + short);
    if (dryRun) return count("wouldSend");
    inFlight++;
    let duplicate = false;
    let maybeApplied = false; // an attempt cut short by an outage may have been applied
    for (;;) {
      try {
        // The hub's duplicate of an award it may have applied at an earlier attempt is this award.
        duplicate = (await send(award, { signal: controller.signal }))?.duplicate === true && !maybeApplied;
        break;
      } catch (error) {
        const away = context.outage(error);
        if (away && !controller.signal.aborted && (reached || context.systemicCause(error) === undefined)) {
          maybeApplied ||= mayHaveBeenApplied(error);
          await pause(index, error);
          if (!controller.signal.aborted) continue;
        }
        if (!away) answered();
        // Applied (a 2xx) with an answer that does not fit schemas.award: a success, listed. Never a
        // failure: a run again would count an award the hub already holds as not done.
        if (context.appliedMismatch(error)) {
          counts.mismatched.push({ index, award: item, error: asError(error) });
          break;
        }
        inFlight--;
        // Aborted with the campaign: not a failure of the award, which a resumed run sends again. It
        // may have been applied (the transport's verdict; any other sender's error: maybe).
        if (controller.signal.aborted) return void interrupted.push({ index, award: item, mayHaveBeenApplied: maybeApplied || mayHaveBeenApplied(error) });
        fail({ index, award: item, error: asError(error) });
        const reason = context.systemicCause(error);
        if (reason === undefined || ++systemic < maxFailures) return;
        stopped ??= { reason, error: asError(error), failures: systemic };
        return void controller.abort(stopped.error);
      }
    }
    answered();
    systemic = 0;
    // A duplicate is settled as an applied award is: journaled, so a run again never sends it.
    const settled = () => {
      inFlight--;
      count(duplicate ? "duplicates" : "applied");
    };
    const open = journal;
    if (!open) return settled();
    while (recordings.size >= concurrency) await Promise.race(recordings);
    const recording: Promise<void> = Promise.resolve()
      .then(() => open.record({ ref: award.ref, hash: hash.toString(36), status: "applied" }))
      .then(settled, (error: unknown) => {
        // Settled but not recorded: going on would make the journal lie about what is done.
        inFlight--;
        stop(error);
      })
      .finally(() => recordings.delete(recording));
    recordings.add(recording);
  };

  const worker = async () => {
    while (!controller.signal.aborted) {
      if (outage) {
        await untilStopped(outage.over); // no new row while the hub is away
        continue;
      }
      let item: IteratorResult<AwardInput>;
      try {
        item = await untilStopped(next());
      } catch (error) {
        return stop(error);
      }
      if (controller.signal.aborted) return; // read but not started: a resumed run sends it
      if (item.done) {
        if (total === counts.total) return;
        total = counts.total; // the end of the input tells the total
        return report();
      }
      await settle(item.value, counts.total++);
    }
  };

  try {
    journal = await openJournal(options.journal, context);
    // One campaign writes a journal file at a time, refused here before it sends anything; a dry run only reads.
    if (!dryRun && typeof options.journal === "string") await journal?.lock?.();
    // A load that is slow or never settles ends with the run: an abort stops it at once.
    const loaded = journal && (await untilStopped(Promise.resolve(journal.load())));
    if (loaded && !controller.signal.aborted) for await (const entry of loaded as Iterable<JournalEntry> | AsyncIterable<JournalEntry>) refs.set(entry.ref, MET + JOURNALED + ((parseInt(entry.hash, 36) % JOURNALED) || 0));
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    while (recordings.size > 0) await Promise.all(recordings);
    signal?.removeEventListener("abort", onAbort);
    await next.close().catch(() => undefined);
    if (journal && typeof options.journal === "string") await journal.close?.();
  }
  if (fatal) throw fatal.error;
  const cutShort = interrupted.sort((a, b) => a.index - b.index);
  if (stopped) throw context.stopped({ reason: stopped.reason, failures: stopped.failures, summary: summary(), cause: stopped.error, inFlight: cutShort });
  // With no fatal error and no stop, only the caller's signal aborts the controller.
  if (controller.signal.aborted) throw context.stopped({ reason: "aborted", failures: 0, summary: summary(), cause: signal!.reason, inFlight: cutShort });
  return summary();
}

async function openJournal(journal: CampaignOptions["journal"], context: CampaignContext): Promise<(CampaignJournal & Pick<OpenedJournal, "lock">) | undefined> {
  if (typeof journal !== "string") return journal;
  if (!context.openJournal) throw context.invalid("campaign options", ["journal"], "a journal path needs the Node build of public-hub-sdk/server; pass a CampaignJournal object here");
  return context.openJournal(journal);
}

/**
 * One reader of the input shared by every worker. Calls are chained, so an async iterator is never
 * asked for its next item before it answered the previous one (not every iterator allows that).
 * The input is never read ahead. `close` lets a generator stopped early run its `finally`.
 */
function reader(source: AwardSource): (() => Promise<IteratorResult<AwardInput>>) & { close: () => Promise<void> } {
  const iterator: Iterator<AwardInput> | AsyncIterator<AwardInput> = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  let finished = false;
  let reads = 0; // asked for, not answered yet
  let chain: Promise<unknown> = Promise.resolve();
  const next = () => {
    reads++;
    const result = chain
      .then(async () => {
        if (finished) return { done: true, value: undefined } as IteratorResult<AwardInput>;
        const item = await iterator.next();
        if (item.done) finished = true;
        return item;
      })
      .finally(() => void reads--);
    chain = result.catch(() => undefined);
    return result;
  };
  const close = async () => {
    if (finished) return;
    finished = true;
    // A stopped run may leave a read waiting (a queue with nothing more yet): return() goes at once,
    // so the input can give up, and is not waited for then (a generator answers it after that read).
    const returned = Promise.resolve().then(() => iterator.return?.());
    if (reads === 0) await returned;
    else returned.catch(() => undefined);
  };
  return Object.assign(next, { close });
}

// A ref's value in `Refs`: MET, plus JOURNALED when the journal holds it, plus its award's
// fingerprint cut to 30 bits. 0 is a ref never met.
const MET = 2 ** 31;
const JOURNALED = 2 ** 30;

/**
 * Every ref met, kept off the JS heap: one `Uint32Array` of slots (open addressing, at most half
 * full), each the ref's 64-bit hash and its value. A `Map` of the ref strings peaked near 300 MiB
 * RSS in a dry run of a million rows; this, about 150 (docs/build-notes.md). Two refs share a hash
 * with probability ≈ n²/2⁶⁵ (3·10⁻⁸ for a million): the second is then a `RefConflictError`,
 * and is skipped unseen only if the 30-bit fingerprints match too.
 */
class Refs {
  #slots = new Uint32Array(3 * 1024);
  #size = 0;

  /** The value of `ref`, 0 when never met. */
  get(ref: string): number {
    const [a, b] = cyrb(ref);
    return this.#slots[this.#find(a, b) + 2]!;
  }

  set(ref: string, value: number): void {
    const [a, b] = cyrb(ref);
    let at = this.#find(a, b);
    if (this.#slots[at + 2] === 0 && ++this.#size * 6 > this.#slots.length) {
      this.#grow();
      at = this.#find(a, b);
    }
    this.#put(at, a, b, value);
  }

  /** Where the hash (a, b) is, or the empty slot where it goes. */
  #find(a: number, b: number): number {
    const slots = this.#slots;
    const mask = slots.length / 3 - 1;
    for (let i = a & mask; ; i = (i + 1) & mask) {
      const at = 3 * i;
      if (slots[at + 2] === 0 || (slots[at] === a && slots[at + 1] === b)) return at;
    }
  }

  #put(at: number, a: number, b: number, value: number): void {
    this.#slots[at] = a;
    this.#slots[at + 1] = b;
    this.#slots[at + 2] = value;
  }

  #grow(): void {
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    for (let at = 0; at < old.length; at += 3) if (old[at + 2] !== 0) this.#put(this.#find(old[at]!, old[at + 1]!), old[at]!, old[at + 1]!, old[at + 2]!);
  }
}

/** cyrb53's two 32-bit lanes (by bryc, public domain): a 64-bit hash of `text`. */
function cyrb(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}

/**
 * The fingerprint of an award: a 53-bit hash (cyrb53) of its JSON with the keys sorted, so the same
 * fields give the same fingerprint whatever their order. It only tells "same award or not" for one
 * `ref`, so it need not be cryptographic; it is synchronous (WebCrypto's digest is not, and took
 * 55 µs an award) and the same as the journals of earlier versions hold.
 */
function fingerprint(award: AwardInput): number {
  const [h1, h2] = cyrb(JSON.stringify(award, Object.keys(award).sort()));
  return 4294967296 * (2097151 & h2) + h1;
}

/** The transport's verdict on a failed send; any other sender's error: maybe applied. */
function mayHaveBeenApplied(error: unknown): boolean {
  return (error as { mayHaveBeenApplied?: unknown } | undefined)?.mayHaveBeenApplied !== false;
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
