import { vi } from "vitest";
import { ioTurns, trackCrypto } from "../helpers/real-io";

/** How a call ended, and when (in fake time, from its start). */
export interface Settled<T> {
  settled: boolean;
  value?: T;
  error?: unknown;
  /** Fake milliseconds from the start of the call to its end (or to `limitMs` when it never ended). */
  elapsed: number;
}

/**
 * Runs `call` under fake timers (setTimeout and Date), advancing time to each next timer until it
 * settles or `limitMs` pass: timeouts, backoffs and `Retry-After` waits cost no real time, and
 * "still pending after N ms" is an exact statement. Real `setImmediate` turns are given between
 * steps, for what a body stream schedules there, and for WebCrypto, whose work is done first.
 */
export async function settle<T>(call: () => Promise<T>, limitMs = 60_000): Promise<Settled<T>> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  const signing = trackCrypto();
  try {
    const start = Date.now();
    const result: Settled<T> = { settled: false, elapsed: limitMs };
    call().then(
      (value) => Object.assign(result, { settled: true, value, elapsed: Date.now() - start }),
      (error: unknown) => Object.assign(result, { settled: true, error, elapsed: Date.now() - start }),
    );
    // Without a timer, only real work is under way (WebCrypto on threads of its own, a body read):
    // real turns pass, fake time stands still, up to a bound for a call that waits on nothing.
    for (let idle = 0; !result.settled && Date.now() - start < limitMs && idle < 100_000; ) {
      await signing.idle();
      if (result.settled) break;
      // Straight to the next timer when there is one; else a real turn.
      if (vi.getTimerCount() > 0) (idle = 0), await vi.advanceTimersToNextTimerAsync();
      else idle++;
      await ioTurns();
    }
    return result;
  } finally {
    signing.restore();
    vi.useRealTimers();
  }
}
