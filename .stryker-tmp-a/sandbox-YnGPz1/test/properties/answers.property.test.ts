/**
 * README: "Any answer (garbage headers, bodies cut or stalled, cached clocks) gives data or a
 * HubError within the documented time; never a raw TypeError", and "The timeout counts from when
 * an attempt is sent" (per attempt, body included). Any sequence of answers to any read settles
 * within the time the README's retry rules allow, with data or a HubError; no unhandled
 * rejection; no prototype touched.
 */
// @ts-nocheck

import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HubClient, HubError } from "public-hub-sdk";
import { scriptedFetch } from "./answers";
import { BASE, FAST, MAX_ATTEMPTS, TIME_BOUND_MS, answers } from "./arbitraries";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => void process.on("unhandledRejection", onUnhandled));
afterEach(() => void process.off("unhandledRejection", onUnhandled));

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, Error.prototype];
const shapeOf = () => PROTOTYPES.map((prototype) => Reflect.ownKeys(prototype).map(String).sort().join());

const reads = ["discover", "getHub", "getLeaderboard", "getHolder", "getStakeStatus"] as const;

describe("any sequence of answers", () => {
  it(
    "a read settles within the documented time with data or a HubError; nothing leaks or pollutes",
    async () => {
      const before = shapeOf();
      await fc.assert(
        fc.asyncProperty(answers(), fc.constantFrom(...reads), async (script, read) => {
          unhandled.length = 0;
          const { fetch, seen } = scriptedFetch(script);
          const hub = new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off", ...FAST, fetch });
          const call = () => (read === "getHolder" || read === "getStakeStatus" ? hub[read]("0xabc") : read === "getLeaderboard" ? hub.getLeaderboard({ limit: 5 }) : hub[read]());
          const result = await settle(call, TIME_BOUND_MS + 1_000);
          await new Promise((resolve) => setImmediate(resolve));

          expect(result.settled, "settled").toBe(true);
          expect(result.elapsed).toBeLessThanOrEqual(TIME_BOUND_MS);
          if (result.error !== undefined) {
            expect(result.error).toBeInstanceOf(HubError);
            expect((result.error as HubError).mayHaveBeenApplied).toBe(false); // a read applies nothing
            expect(() => JSON.stringify(result.error)).not.toThrow();
          } else {
            expect(typeof result.value).toBe("object");
            expect(result.value).not.toBeNull();
          }
          // Each of at most 6 URLs (5 same-origin redirects) gets at most the README's attempts.
          expect(seen.length).toBeLessThanOrEqual(MAX_ATTEMPTS * 6);
          expect(unhandled).toEqual([]);
          expect(shapeOf()).toEqual(before);
          expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        }),
        params(120),
      );
    },
    timeoutFor(30_000),
  );
});
