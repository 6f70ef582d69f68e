/**
 * One gate per client that every attempt (reads and writes, first tries and retries) passes just
 * before it is sent. It keeps the client within its concurrency and rate, pauses every queued
 * request while the server asked to wait (`Retry-After`), lowers the send rate when the server
 * throttles without saying how long (and ramps back up), and keeps a retry budget so that a storm
 * of failures cannot turn into endless retries. Models: AWS SDK v3 `util-retry` (adaptive mode,
 * retry quota) and TCP's multiplicative decrease. No timer or random value exists until a request
 * needs one (edge runtimes forbid both at module scope).
 */

/** Settings of the gate; see `RateLimitOptions` for their documentation. */
export interface GateSettings {
  maxConcurrency: number;
  maxRequestsPerSecond: number;
  retryBudget: number;
}

/** Where the gate reports its pauses and rate changes. */
type GateLog = (event: string, fields: () => Record<string, unknown>) => void;

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  jitterMs: number;
  signal?: AbortSignal | undefined;
  onAbort?: (() => void) | undefined;
}

const BETA = 0.95; // the rate kept after a throttle, as a share of what the server let through
const RECOVER_MS = 250; // back to that rate within this time…
const DOUBLING_MS = 500; // …then above it, doubling every half second until throttled again
const MAX_PAUSE_JITTER_MS = 1_000;

/** Retry costs, AWS-style: a retry takes tokens, a success gives one back. */
export const RETRY_COST = 5;
export const TIMEOUT_RETRY_COST = 10;

export class RateGate {
  readonly #settings: GateSettings;
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #pausedUntil = 0;
  #pauseSpreadMs = 0;
  // Adaptive rate: Infinity until the server first throttles (or the configured maximum).
  #ceiling = Infinity;
  #decreasedAt = -Infinity;
  #tokens = 1;
  #refilledAt = 0;
  #retryTokens: number;
  // Answers the server let through per second, as an exponentially decaying count (time constant
  // 1 s): while it throttles, this is its limit.
  #passRate = 0;
  #passedAt = 0;
  #firstPassAt: number | undefined;

  readonly #log: GateLog;

  constructor(settings: GateSettings, log: GateLog = () => undefined) {
    this.#settings = settings;
    this.#log = log;
    this.#retryTokens = settings.retryBudget;
  }

  /** The send rate now allowed, in requests per second (Infinity: no limit). */
  rate(now = Date.now()): number {
    const max = this.#settings.maxRequestsPerSecond;
    // Stryker disable next-line ConditionalExpression: with no ceiling, the share below is 2^Infinity and the minimum is max all the same
    if (this.#ceiling === Infinity) return max;
    const since = now - this.#decreasedAt;
    // Far below the server's limit (a first estimate made during a start-up burst), doubling finds
    // it in a few seconds; near it, the overshoot is short and costs a few 429s.
    // Stryker disable next-line EqualityOperator: at exactly RECOVER_MS both branches give a share of 1
    const share = since >= RECOVER_MS ? 2 ** ((since - RECOVER_MS) / DOUBLING_MS) : BETA + ((1 - BETA) * since) / RECOVER_MS;
    return Math.min(max, this.#ceiling * share);
  }

  /** Milliseconds until which every request waits, from the latest `Retry-After`. */
  get pausedUntil(): number {
    return this.#pausedUntil;
  }

  /** Retry tokens left. */
  get retryTokens(): number {
    return this.#retryTokens;
  }

  /** Attempts in flight and waiting. */
  get load(): { inFlight: number; queued: number } {
    return { inFlight: this.#inFlight, queued: this.#queue.length };
  }

  /** Waits for a turn: a free slot, a rate token, and the end of any pause. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // The usual case, decided as #pump would decide it, without queueing a waiter: skipped, #pump
    // (called below) lets the same attempt go a microtask later; taken with waiters queued (who
    // wait only for a pause's jitter or a token, both checked below), the order differs only within
    // one pause's jitter.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: see above
    if (this.#queue.length === 0 && this.#inFlight < this.#settings.maxConcurrency) {
      const now = Date.now();
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: see above; at a tie #pump's wait is 0 too
      if (this.#pausedUntil <= now && this.#tokenWait(now) <= 0) {
        this.#take(now);
        this.#inFlight++;
        return Promise.resolve();
      }
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, jitterMs: this.#jitter() };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.#queue.indexOf(waiter);
          // Stryker disable next-line ConditionalExpression: the listener goes when the waiter leaves the queue, so it is always found here
          if (index >= 0) this.#queue.splice(index, 1);
          reject(signal.reason);
          this.#pump();
        };
        // Stryker disable next-line ObjectLiteral,BooleanLiteral: `once` is tidiness only: an abort event fires once, and the listener goes when the waiter leaves the queue
        signal.addEventListener("abort", waiter.onAbort, { once: true });
      }
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Gives the slot back once the attempt has its answer (or failed). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#pump();
  }

  /**
   * Learns from an answer. 429 with a wait: pause everyone (within `maxWaitMs`); 429 without:
   * lower the rate, once per congestion (answers to requests sent before the last decrease are
   * already accounted for). A 2xx gives a retry token back.
   */
  observe(status: number, retryAfterMs: number | undefined, sentAt: number, maxWaitMs: number, now = Date.now()): void {
    if (status !== 429) {
      this.#passRate = this.#passRate * Math.exp((this.#passedAt - now) / 1_000) + 1;
      this.#passedAt = now;
      this.#firstPassAt ??= now;
    }
    if (status >= 200 && status < 300) {
      this.#retryTokens = Math.min(this.#settings.retryBudget, this.#retryTokens + 1);
      return;
    }
    // Stryker disable next-line ConditionalExpression: a 503 without Retry-After let through here reaches neither branch below, only the idempotent pump
    if (status !== 429 && !(status === 503 && retryAfterMs !== undefined)) return;
    if (retryAfterMs !== undefined) {
      if (retryAfterMs > maxWaitMs) return; // the caller gets the error instead of a long wait
      if (now + retryAfterMs > this.#pausedUntil) {
        this.#pausedUntil = now + retryAfterMs;
        this.#log("pause", () => ({ status, ms: retryAfterMs, waiting: this.#queue.length }));
        this.#pauseSpreadMs = Math.min(MAX_PAUSE_JITTER_MS, retryAfterMs / 10 + 50);
        for (const waiter of this.#queue) waiter.jitterMs = Math.random() * this.#pauseSpreadMs;
      }
    } else if (sentAt >= this.#decreasedAt) {
      // A 429 without Retry-After (a 503 comes here only with one).
      const ceiling = Math.min(this.rate(now), Math.max(1, this.#passed(now)));
      this.#ceiling = ceiling;
      this.#decreasedAt = now;
      this.#tokens = Math.min(this.#tokens, 1);
      this.#log("rate-lowered", () => ({ perSecond: this.rate(now).toFixed(1) }));
    }
    this.#pump();
  }

  /** Takes the tokens a retry costs; false when the budget cannot pay (then do not retry). */
  spendRetry(cost: number): boolean {
    if (this.#retryTokens < cost) return false;
    this.#retryTokens -= cost;
    return true;
  }

  /** A waiter's extra wait after a pause, so that the queue does not come back in one instant. */
  #jitter(): number {
    return this.#pausedUntil > Date.now() ? Math.random() * this.#pauseSpreadMs : 0;
  }

  /** The waiter to serve next: the first in line, or during a pause the one whose jitter ends first. */
  #next(now: number): { index: number; pauseWait: number } {
    let index = 0;
    let pauseWait = this.#pausedUntil + this.#queue[0]!.jitterMs - now;
    // Stryker disable next-line EqualityOperator: at a wait of 0 the first goes now; another also ready would go in its place, the same instant
    for (let i = 1; pauseWait > 0 && i < this.#queue.length; i++) {
      const wait = this.#pausedUntil + this.#queue[i]!.jitterMs - now;
      // Stryker disable next-line EqualityOperator: a tie has the same wait, so the same timer; who goes is picked when it fires
      if (wait < pauseWait) [index, pauseWait] = [i, wait];
    }
    return { index, pauseWait };
  }

  #pump(): void {
    clearTimeout(this.#timer); // a no-op when there is none
    this.#timer = undefined;
    while (this.#queue.length > 0 && this.#inFlight < this.#settings.maxConcurrency) {
      const now = Date.now();
      const { index, pauseWait } = this.#next(now);
      const wait = Math.max(pauseWait, this.#tokenWait(now));
      if (wait > 0) {
        this.#timer = setTimeout(() => {
          this.#timer = undefined;
          this.#pump();
        }, Math.ceil(wait));
        return;
      }
      const head = this.#queue.splice(index, 1)[0]!;
      // onAbort is set exactly on the waiters with a signal.
      head.signal?.removeEventListener("abort", head.onAbort!);
      this.#take(now);
      this.#inFlight++;
      head.resolve();
    }
  }

  /** Milliseconds until one rate token is there (token bucket holding 100 ms of the rate). */
  #tokenWait(now: number): number {
    const rate = this.rate(now);
    if (rate === Infinity) return 0;
    const capacity = Math.max(1, rate / 10);
    this.#tokens = Math.min(capacity, this.#tokens + ((now - this.#refilledAt) * rate) / 1_000);
    this.#refilledAt = now;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: with one token or more, the wait below is 0 or less, which is no wait as well
    return this.#tokens >= 1 ? 0 : ((1 - this.#tokens) * 1_000) / rate;
  }

  #take(now: number): void {
    // Stryker disable next-line ConditionalExpression: while the rate is unlimited the refill time is not kept, so the first limited refill fills the bucket whatever the count
    if (this.rate(now) !== Infinity) this.#tokens -= 1;
  }

  /**
   * Answers let through per second. A decaying count over a history shorter than its time
   * constant undercounts (a first throttle comes a fraction of a second in): it is divided by the
   * share of the window seen so far, as Adam's bias correction does, at most 4.5× (250 ms).
   */
  #passed(now: number): number {
    const seen = Math.max(250, now - (this.#firstPassAt ?? now));
    return (this.#passRate * Math.exp((this.#passedAt - now) / 1_000)) / (1 - Math.exp(-seen / 1_000));
  }
}
