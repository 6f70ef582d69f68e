// @ts-nocheck
import { RateMeter } from "./rate-meter";
import type { CampaignFailure, CampaignProgress, CampaignSummary } from "./types";

/** The counts of a running campaign, and the `onProgress` calls that report them. */
export class CampaignCounter {
  #read = 0;
  #total: number | undefined;
  #applied = 0;
  #wouldSend = 0;
  #skipped = 0;
  #inFlight = 0;
  readonly #failed: CampaignFailure[] = [];
  readonly #mismatched: CampaignFailure[] = [];
  readonly #meter = new RateMeter();
  readonly #started = performance.now();
  readonly #onProgress: ((progress: CampaignProgress) => void) | undefined;
  readonly #onError: (error: unknown) => void;

  /** `onError` hears what a throwing `onProgress` threw: the campaign stops with it. */
  constructor(total: number | undefined, onProgress: ((progress: CampaignProgress) => void) | undefined, onError: (error: unknown) => void) {
    this.#total = total;
    this.#onProgress = onProgress;
    this.#onError = onError;
  }

  /** Takes the next input index. */
  read(): number {
    return this.#read++;
  }

  start(): void {
    this.#inFlight++;
  }

  /** A sent award is applied (and no longer in flight). */
  apply(): void {
    this.#inFlight--;
    this.#applied++;
    this.#report();
  }

  /** Dry run: the award passed every check and would be sent. */
  wouldSend(): void {
    this.#wouldSend++;
    this.#report();
  }

  skip(): void {
    this.#skipped++;
    this.#report();
  }

  fail(failure: CampaignFailure, wasInFlight = false): void {
    if (wasInFlight) this.#inFlight--;
    this.#failed.push(failure);
    this.#report();
  }

  /** A sent award was applied but its answer did not fit `schemas.award`: listed; `apply()` counts it. */
  mismatch(mismatch: CampaignFailure): void {
    this.#mismatched.push(mismatch);
  }

  /** An award stopped by the campaign's end (abort, early stop or fatal error): neither applied nor failed. */
  interrupt(): void {
    this.#inFlight--;
  }

  /** The input is exhausted (or the campaign stopped): the total is what was read. */
  endOfInput(): void {
    if (this.#total === this.#read) return;
    this.#total = this.#read;
    this.#report();
  }

  summary(dryRun: boolean): CampaignSummary {
    return { total: this.#read, applied: this.#applied, wouldSend: this.#wouldSend, skipped: this.#skipped, failed: [...this.#failed], mismatched: [...this.#mismatched], dryRun };
  }

  #report(): void {
    if (!this.#onProgress) return;
    const done = this.#applied + this.#wouldSend + this.#skipped + this.#failed.length;
    try {
      this.#onProgress({
        done,
        total: this.#total,
        applied: this.#applied,
        wouldSend: this.#wouldSend,
        skipped: this.#skipped,
        failed: this.#failed.length,
        inFlight: this.#inFlight,
        rate: this.#meter.update(done),
        elapsedMs: performance.now() - this.#started,
      });
    } catch (error) {
      this.#onError(error);
    }
  }
}
