// @ts-nocheck
import { vi } from "vitest";

/** How a call ended, and when (in fake time, from its start). */
export interface Settled<T> {
  settled: boolean;
  value?: T;
  error?: unknown;
  /** Fake milliseconds from the start of the call to its end (or to `limitMs` when it never ended). */
  elapsed: number;
}

/**
 * Runs `call` under fake timers (setTimeout and Date), advancing time to each next timer (or by
 * `stepMs` when none is set) until it settles or `limitMs` pass: timeouts, backoffs and `Retry-After` waits cost no real time, and
 * "still pending after N ms" is an exact statement. Real `setImmediate` turns are given between
 * steps, for what a body stream schedules there.
 */
export async function settle<T>(call: () => Promise<T>, limitMs = 60_000, stepMs = 5): Promise<Settled<T>> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "Date"] });
  try {
    const start = Date.now();
    const result: Settled<T> = { settled: false, elapsed: limitMs };
    call().then(
      (value) => Object.assign(result, { settled: true, value, elapsed: Date.now() - start }),
      (error: unknown) => Object.assign(result, { settled: true, error, elapsed: Date.now() - start }),
    );
    while (!result.settled && Date.now() - start < limitMs) {
      // Straight to the next timer when there is one; else a small step (a body read in flight).
      if (vi.getTimerCount() > 0) await vi.advanceTimersToNextTimerAsync();
      else await vi.advanceTimersByTimeAsync(stepMs);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return result;
  } finally {
    vi.useRealTimers();
  }
}
