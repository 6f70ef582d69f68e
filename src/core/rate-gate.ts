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
  /** Set once #pump gives the waiter its turn. */
  served: boolean;
  /** Absent while `acquire` is still deciding; a waiter served then needs no promise. */
  resolve?: (() => void) | undefined;
  jitterMs: number;
  signal?: AbortSignal | undefined;
  onAbort?: (() => void) | undefined;
}

const SERVED = Promise.resolve();
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
    // Before any throttle, the ceiling and `since` are infinite: the rate is the configured maximum.
    const since = now - this.#decreasedAt;
    // Far below the server's limit (a first estimate made during a start-up burst), doubling finds
    // it in a few seconds; near it, the overshoot is short and costs a few 429s.
    const share = since >= RECOVER_MS ? 2 ** ((since - RECOVER_MS) / DOUBLING_MS) : BETA + ((1 - BETA) * since) / RECOVER_MS;
    return Math.min(this.#settings.maxRequestsPerSecond, this.#ceiling * share);
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

  /**
   * Waits for a turn: a free slot, a rate token, and the end of any pause. #pump alone decides;
   * a waiter it serves at once gets a promise already settled (no allocation per attempt).
   */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const waiter: Waiter = { served: false, signal, jitterMs: this.#jitter() };
    this.#queue.push(waiter);
    this.#pump();
    if (waiter.served) return SERVED;
    return new Promise<void>((resolve, reject) => {
      waiter.resolve = resolve;
      if (!signal) return;
      // Removed when the waiter is served, so a waiter that hears it is still in the queue.
      waiter.onAbort = () => {
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        reject(signal.reason);
        this.#pump();
      };
      signal.addEventListener("abort", waiter.onAbort);
    });
  }

  /** Gives the slot back once the attempt has its answer (or failed). */
  release(): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    this.#pump();
  }

  /**
   * Learns from an answer. A 429 or 503 with a wait: pause everyone (`retryAfterMs` as the client
   * honours it, from `retryAfterOf`: `Infinity` for a wait longer than the caller's, which is the
   * caller's error, not the client's pause); a 429 without: lower the rate, once per congestion
   * (answers to requests sent before the last decrease are already accounted for). A 2xx gives a
   * retry token back.
   */
  observe(status: number, retryAfterMs: number | undefined, sentAt: number, now = Date.now()): void {
    if (status !== 429) {
      this.#passRate = this.#passRate * Math.exp((this.#passedAt - now) / 1_000) + 1;
      this.#passedAt = now;
      this.#firstPassAt ??= now;
    }
    if (status >= 200 && status < 300) this.#retryTokens = Math.min(this.#settings.retryBudget, this.#retryTokens + 1);
    // No wait, or one the client does not take (Infinity), pauses nothing.
    const pauses = (status === 429 || status === 503) && (retryAfterMs ?? Infinity) < Infinity;
    if (pauses && now + retryAfterMs! > this.#pausedUntil) {
      this.#pausedUntil = now + retryAfterMs!;
      this.#log("pause", () => ({ status, ms: retryAfterMs, waiting: this.#queue.length }));
      this.#pauseSpreadMs = Math.min(MAX_PAUSE_JITTER_MS, retryAfterMs! / 10 + 50);
      for (const waiter of this.#queue) waiter.jitterMs = Math.random() * this.#pauseSpreadMs;
    } else if (status === 429 && retryAfterMs === undefined && sentAt >= this.#decreasedAt) {
      this.#ceiling = Math.min(this.rate(now), Math.max(1, this.#passed(now)));
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
    const waitOf = (i: number) => this.#pausedUntil + this.#queue[i]!.jitterMs - now;
    let index = 0;
    for (let i = 1; waitOf(index) > 0 && i < this.#queue.length; i++) if (waitOf(i) < waitOf(index)) index = i;
    return { index, pauseWait: waitOf(index) };
  }

  #pump(): void {
    clearTimeout(this.#timer); // a no-op when there is none
    this.#timer = undefined;
    while (this.#queue.length > 0 && this.#inFlight < this.#settings.maxConcurrency) {
      const now = Date.now();
      const { index, pauseWait } = this.#next(now);
      const wait = Math.max(pauseWait, this.#tokenWait(now));
      if (wait > 0) {
        this.#timer = setTimeout(() => this.#pump(), Math.ceil(wait));
        return;
      }
      const [head] = this.#queue.splice(index, 1);
      head!.served = true;
      head!.signal?.removeEventListener("abort", head!.onAbort!);
      // While the rate is unlimited the count is not refilled, and the first limited refill fills the bucket.
      this.#tokens -= 1;
      this.#inFlight++;
      head!.resolve?.();
    }
  }

  /** Milliseconds until one rate token is there (a token bucket holding 100 ms of the rate); ≤ 0 for none. */
  #tokenWait(now: number): number {
    const rate = this.rate(now);
    if (rate === Infinity) return 0;
    this.#tokens = Math.min(Math.max(1, rate / 10), this.#tokens + ((now - this.#refilledAt) * rate) / 1_000);
    this.#refilledAt = now;
    return ((1 - this.#tokens) * 1_000) / rate;
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
