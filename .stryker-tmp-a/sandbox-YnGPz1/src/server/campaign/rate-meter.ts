// @ts-nocheck
const WINDOW_MS = 5_000;
const SAMPLE_MS = 250;

/**
 * Settled awards per second over the last ~5 seconds: recent enough to show a rate limit biting,
 * smooth enough not to jump on every answer. Keeps at most WINDOW_MS / SAMPLE_MS samples.
 */
export class RateMeter {
  readonly #samples: Array<{ at: number; done: number }> = [];
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
    this.#samples.push({ at: now(), done: 0 });
  }

  /** Notes the count of settled awards now; returns the rate in awards per second. */
  update(done: number): number {
    const at = this.#now();
    const last = this.#samples.at(-1)!;
    if (at - last.at >= SAMPLE_MS) this.#samples.push({ at, done });
    // Drops the oldest while the next one still spans the window; the newest is at most SAMPLE_MS old,
    // so two samples at least stay.
    while (this.#samples.length > 1 && at - this.#samples[1]!.at > WINDOW_MS) this.#samples.shift();
    const first = this.#samples[0]!;
    const seconds = (at - first.at) / 1000;
    return seconds > 0 ? (done - first.done) / seconds : 0;
  }
}
