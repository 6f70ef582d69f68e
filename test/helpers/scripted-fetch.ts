// A fetch that answers from a script under fake timers, and a client on it: when each attempt
// arrived, to the millisecond, what redirect mode it was sent with, and how many were in flight.
import { vi } from "vitest";
import { HubClient, type HubClientOptions } from "public-hub-sdk";

export type Answer = { status?: number; headers?: Record<string, string>; hold?: Promise<void> };
export const BASE = "https://h.test/api/v1";

/** A fetch that answers `answers` in turn (the last repeats), and when each attempt arrived (ms after the start). */
export function scripted(answers: Answer[], random = 0) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
  vi.spyOn(Math, "random").mockReturnValue(random);
  const start = Date.now();
  const times: number[] = [];
  const redirects: Array<RequestRedirect | undefined> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const fetch = async (_url: unknown, init?: RequestInit) => {
    const { status = 200, headers = {}, hold } = answers[Math.min(times.length, answers.length - 1)]!;
    times.push(Date.now() - start);
    redirects.push(init?.redirect);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    try {
      await hold;
    } finally {
      inFlight--;
    }
    return Response.json({ slug: "alpha", message: `status ${status}` }, { status, headers });
  };
  return { fetch: fetch as unknown as typeof globalThis.fetch, times, redirects, mostInFlight: () => mostInFlight };
}

export const client = (fetch: typeof globalThis.fetch, options: Partial<HubClientOptions> = {}) =>
  new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off", maxConcurrency: 1, fetch, ...options });

/** Runs the calls (started together) to their end under the fake clock, from timer to timer. */
export async function run<T>(calls: Array<() => Promise<T>>) {
  let done = false;
  const pending = Promise.allSettled(calls.map((call) => call())).finally(() => (done = true));
  for (let step = 0; !done && step < 1_000; step++) await vi.advanceTimersToNextTimerAsync();
  return pending;
}
