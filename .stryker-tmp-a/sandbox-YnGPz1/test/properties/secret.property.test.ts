/**
 * README: "the secret is never sent, and never shown by console.log, util.inspect, JSON.stringify
 * or any error"; "Keys, signatures, bodies and query strings are never logged". Whatever the
 * server answers, the secret, any part of it, and its hash appear in no error view, request, log
 * line or inspection of any object the caller can reach.
 */
// @ts-nocheck

import { createHash, randomBytes } from "node:crypto";
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubClient, HubValidationError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { scriptedFetch } from "./answers";
import { BASE, FAST, TIME_BOUND_MS, answers } from "./arbitraries";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

/**
 * Every part of `secret` worth hiding: itself, its hash, every 8-character window of its random
 * part, and every 16-character window of the hash (hex: shorter ones occur by chance).
 */
function partsOf(secret: string, randomLength: number): string[] {
  const hash = createHash("sha256").update(secret, "utf8").digest("hex");
  const windows = (text: string, size: number, upTo = text.length) => Array.from({ length: Math.max(0, upTo - size + 1) }, (_, i) => text.slice(i, i + size));
  return [secret, hash, hash.toUpperCase(), Buffer.from(secret).toString("base64"), ...windows(secret, 8, randomLength), ...windows(hash, 16)];
}

/** Everything a caller can see of an error. */
const viewsOf = (error: unknown) => [String(error), (error as Error)?.stack ?? "", JSON.stringify(error) ?? "", inspect(error, { depth: 8, showHidden: true, getters: true })];

describe("the secret never leaves", () => {
  it(
    "in no request, error, log line, event or inspection, whatever the answers",
    async () => {
      await fc.assert(
        fc.asyncProperty(answers(), fc.string({ unit: "binary", maxLength: 8 }), fc.boolean(), async (script, suffix, useSigningKey) => {
          // The random part makes every window of it unlikely anywhere by chance; the suffix is any text.
          const random = randomBytes(18).toString("base64url");
          const secret = random + suffix;
          const parts = partsOf(secret, random.length);
          const lines: string[] = [];
          const events: unknown[] = [];
          const keep = (line: string) => void lines.push(line);
          const { fetch, seen } = scriptedFetch(script);
          const key = useSigningKey ? { signingKey: createHash("sha256").update(secret, "utf8").digest("hex") } : { secret };
          const server = new HubServerClient({
            baseUrl: BASE, clientId: "pk", hub: "alpha", ...key, ...FAST, fetch,
            logLevel: "debug", logger: { debug: keep, info: keep, warn: keep, error: keep },
            onRequest: (event) => void events.push(event),
          });
          const award = settle(() => server.awardPoints({ wallet: "0xabc", amount: 5, ref: "quest-1:0xabc" }).withResponse(), 2 * TIME_BOUND_MS + 1_000);
          const awarded = await award;
          const read = await settle(() => server.getHub().withResponse(), TIME_BOUND_MS + 1_000);

          const seenText = seen.flatMap((request) => [request.url, request.body ?? "", ...[...request.headers].flat()]);
          const texts = [
            ...seenText,
            ...lines,
            JSON.stringify(events),
            ...viewsOf(awarded.error),
            ...viewsOf(read.error),
            inspect(server, { depth: 8, showHidden: true, getters: true }),
            JSON.stringify(server),
            String(server),
            inspect(awarded.value, { depth: 4, showHidden: true }),
            inspect(read.value, { depth: 4, showHidden: true }),
          ];
          for (const part of parts) {
            const leak = texts.find((text) => text.includes(part));
            expect(leak, `part ${JSON.stringify(part)} of the secret leaked`).toBeUndefined();
          }
        }),
        params(60),
      );
    },
    timeoutFor(30_000),
  );

  it("a secret handed to HubClient is refused, and its error does not hold it", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", minLength: 1, maxLength: 20 }), fc.constantFrom("secret", "signingKey", "secert"), (tail, name) => {
        const random = randomBytes(18).toString("base64url");
        const secret = random + tail;
        let error: unknown;
        try {
          new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", [name]: secret } as never);
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(HubValidationError);
        for (const part of partsOf(secret, random.length)) expect(viewsOf(error).some((view) => view.includes(part))).toBe(false);
      }),
      params(50),
    );
  }, timeoutFor(10_000));
});
