/**
 * README: "A write that fails on the network, times out, or gets 408, 429 or 5xx is resent with
 * the same body and ref, freshly signed with a new timestamp just before each attempt", "Every
 * error has mayHaveBeenApplied: true when a write failed after it may have reached the server",
 * "If a write is refused and the Date shows the clocks differ by more than the window, it is
 * retried once, corrected", "default 2 retries", "a call may take up to 8 of them (beyond
 * retry.limit)". Any sequence of answers to an award, from a server whose clock may be hours off.
 */
// @ts-nocheck

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { rawSign } from "../helpers/raw-sign";
import { scriptedFetch, type Answer } from "./answers";
import { BASE, FAST, MAX_ATTEMPTS, NEVER_SENT_CODES, TIME_BOUND_MS, answers } from "./arbitraries";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

const SECRET = "property-secret";
const WINDOW_SECONDS = 300;

/** Whether an attempt so answered may have been applied: the test's own reading of the README. */
function mayHaveApplied(answer: Answer): boolean {
  if (answer.kind === "network") return !NEVER_SENT_CODES.includes(answer.code);
  if (answer.kind === "stall-headers") return true; // cut by the timeout after it was sent
  return (answer.status >= 200 && answer.status < 300) || answer.status >= 500 || answer.status === 408;
}

/** The server's own, fresh clock (not junk, not a cache's copy). */
const tellsTime = (answer: Answer) => answer.kind === "response" && answer.headers.date?.startsWith("@now") === true && answer.headers.age === undefined;

const nonBlank = fc.string({ unit: "binary", minLength: 1, maxLength: 16 }).filter((value) => value.trim() !== "");
const award = fc.oneof(
  fc.record({ wallet: nonBlank, amount: fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.double({ min: 0.001, max: 1e12, noNaN: true })), reason: nonBlank, ref: nonBlank }, { requiredKeys: ["wallet", "amount", "ref"] }),
  fc.record({ wallet: nonBlank, kind: nonBlank, ref: nonBlank }),
);

describe("any sequence of answers to an award", () => {
  it(
    "same body and ref every attempt, each signature valid for its own timestamp in server time, the verdict exact, the attempts bounded",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(0, 3_600_000, -3_600_000, 86_400_000).chain((skew) => fc.tuple(fc.constant(skew), answers(skew))),
          award,
          async ([skew, script], input) => {
            const problems: string[] = [];
            const { fetch, seen } = scriptedFetch(script, (request, index) => {
              const timestamp = request.headers.get("x-api-timestamp") ?? "";
              const path = new URL(request.url).pathname;
              if (request.headers.get("x-api-signature") !== rawSign(SECRET, timestamp, "POST", path, request.body ?? "")) problems.push(`attempt ${index + 1}: the signature does not verify`);
              // Once an earlier answer told the server's time, every attempt is signed in it.
              if (script.slice(0, index).some(tellsTime) && Math.abs(Number(timestamp) - (Date.now() + skew) / 1000) > WINDOW_SECONDS) {
                problems.push(`attempt ${index + 1}: timestamp ${timestamp} is outside the server's window`);
              }
            });
            const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: SECRET, logLevel: "off", ...FAST, fetch });
            const result = await settle(() => server.awardPoints(input), 2 * TIME_BOUND_MS + 1_000);

            expect(result.settled).toBe(true);
            expect(result.elapsed).toBeLessThanOrEqual(2 * TIME_BOUND_MS);
            expect(problems).toEqual([]);
            // The README's attempts: limit + 1, 8 more for 429s, and the whole once more for the clock.
            expect(seen.length).toBeGreaterThanOrEqual(1);
            expect(seen.length).toBeLessThanOrEqual(2 * MAX_ATTEMPTS);
            const body = JSON.stringify(input);
            for (const request of seen) {
              expect(request.body).toBe(body);
              expect(new URL(request.url).pathname).toBe("/api/v1/hub/alpha/bits/earn");
            }
            if (result.error === undefined) return;
            expect(result.error).toBeInstanceOf(HubError);
            const attempts = seen.map((_, index) => script[Math.min(index, script.length - 1)]!);
            expect((result.error as HubError).mayHaveBeenApplied).toBe(attempts.some(mayHaveApplied));
          },
        ),
        params(150),
      );
    },
    timeoutFor(30_000),
  );
});
