/**
 * Every wait bounded, in the server's time (a server client's reads): whatever the rate-limit headers say (any form, any
 * value) and however far the server's clock is from this machine's, a call never waits beyond its
 * own limits, never retries faster than its backoff's floor, and never pauses longer than the hub
 * asked (a wait read from a whole-second date or epoch may end up to a second late, never early).
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

afterEach(() => vi.restoreAllMocks());

/** How an answer says its wait. */
const FORMS = ["retry-after-seconds", "retry-after-date", "reset-epoch-seconds", "reset-epoch-ms", "ietf", "reset-seconds"] as const;
type Form = (typeof FORMS)[number];

interface Said {
  status: 429 | 503;
  form: Form;
  /** The wait the hub means, in whole seconds. */
  seconds: number;
}

/** The headers of an answer saying `said` at `serverNow` (the server's clock, in ms). */
function headersOf({ form, seconds }: Said, serverNow: number): Record<string, string> {
  const date = new Date(serverNow).toUTCString();
  const at = serverNow + seconds * 1000;
  switch (form) {
    case "retry-after-seconds":
      return { date, "retry-after": String(seconds) };
    case "retry-after-date":
      return { date, "retry-after": new Date(at).toUTCString() };
    case "reset-epoch-seconds":
      return { date, "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(at / 1000)) };
    case "reset-epoch-ms":
      return { date, "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(at) };
    case "ietf":
      return { date, ratelimit: `"default";r=0;t=${seconds}` };
    case "reset-seconds":
      return { date, "ratelimit-remaining": "0", "ratelimit-reset": String(seconds) };
  }
}

const said = fc.record({ status: fc.constantFrom(429 as const, 503 as const), form: fc.constantFrom(...FORMS), seconds: fc.integer({ min: 0, max: 200 }) });
const options = fc.record({
  limit: fc.integer({ min: 0, max: 3 }),
  backoff: fc.integer({ min: 10, max: 3_000 }),
  maxBackoff: fc.integer({ min: 1, max: 20_000 }),
  maxRetryAfter: fc.integer({ min: 0, max: 120_000 }),
});

describe("every wait a hub asks for", () => {
  it(
    "is waited in the server's time, never beyond the call's limits, never faster than the backoff's floor",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(said, { minLength: 1, maxLength: 4 }), options, fc.integer({ min: -86_400_000, max: 86_400_000 }), async (script, retry, offset) => {
          vi.spyOn(Math, "random").mockReturnValue(0.5);
          const starts: number[] = [];
          const fetch = (async () => {
            const answer = script[starts.length];
            starts.push(Date.now());
            if (!answer) return Response.json({ slug: "alpha" });
            return Response.json({ error: "slow down" }, { status: answer.status, headers: headersOf(answer, Date.now() + offset) });
          }) as typeof globalThis.fetch;
          // The server client keeps the server's time (a browser's HubClient seldom sees `Date`).
          const hub = new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", timeout: 1_000, retry, fetch });
          const result = await settle(() => hub.getHub(), 10_000_000);

          expect(result.settled).toBe(true);
          if (result.error !== undefined) expect(result.error).toBeInstanceOf(HubError);
          const floor = Math.min(retry.backoff / 2, retry.maxBackoff, 1_000);
          // The longest a call may wait for the hub, and for its own backoff.
          const maxWait = retry.limit === 0 ? Math.min(retry.maxRetryAfter, 1_000) : retry.maxRetryAfter;
          for (let i = 1; i < starts.length; i++) {
            const gap = starts[i]! - starts[i - 1]!;
            const meant = script[i - 1]!.seconds * 1000;
            expect(gap, `retry ${i}: no burst`).toBeGreaterThanOrEqual(floor);
            expect(gap, `retry ${i}: within the call's limits`).toBeLessThanOrEqual(Math.max(maxWait, retry.maxBackoff));
            // A date or an epoch in whole seconds is read against the server's `Date`: never early, at most a second late.
            expect(gap, `retry ${i}: no longer than the hub asked`).toBeLessThanOrEqual(Math.max(meant + 1_000, retry.maxBackoff, floor));
            if (meant > Math.max(retry.maxBackoff, floor)) expect(gap, `retry ${i}: not before the hub's time`).toBeGreaterThanOrEqual(meant - 1_000);
          }
          // A wait the call may not take is no retry: the call ends with the wait on its error.
          const last = script[starts.length - 1];
          if (result.error !== undefined && last && last.seconds * 1000 > maxWait + 1_000 && retry.limit > 0) {
            expect(result.error).toMatchObject({ status: last.status });
            if (last.status === 429) expect((result.error as { retryAfterMs?: number }).retryAfterMs).toBeGreaterThanOrEqual(last.seconds * 1000 - 1_000);
          }
        }),
        params(150),
      );
    },
    timeoutFor(60_000),
  );
});
