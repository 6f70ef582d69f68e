/**
 * README: "Bad input is a HubValidationError and nothing is sent" and "Slugs and wallets are
 * percent-encoded as single path segments" — whatever a JavaScript caller hands in, typed or not.
 * Any input to any constructor or method either works or throws a HubValidationError with nothing
 * sent; every path segment and query value sent decodes back to what was given.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubClient, HubValidationError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { json, scriptedFetch } from "./answers";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

const BASE = "https://h.test/api/v1";

/** Text of any UTF-16 code units: lone surrogates, controls, `/`, `?`, `#`, `%`, `.`… */
const units = fc.string({ unit: fc.nat(0xffff).map((code) => String.fromCharCode(code)), maxLength: 12 });
const text = fc.oneof(units, fc.string({ unit: "binary", maxLength: 12 }), fc.constantFrom("", " ", ".", "..", "...", "a/b", "%2F", "?x=1#y", "\ud800", "w😀", "0xabc"));
const number = fc.oneof(fc.integer(), fc.double(), fc.bigInt(), fc.constantFrom(0, -0, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 1e21, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity));
/** Anything at all, with a bias towards what is nearly right. */
const value = fc.oneof(text, number, fc.anything({ maxDepth: 2 }), fc.constantFrom(undefined, null, false, true, {}, [], () => 1));

const standardSchema = { "~standard": { version: 1, vendor: "test", validate: (input: unknown) => ({ value: input }) } };
const retry = fc.oneof(number, value, fc.record({ limit: number, backoff: number, maxBackoff: number, maxRetryAfter: number, limt: value }, { requiredKeys: [] }));
/** Per-call options: nothing, anything, or a bag of real names (and a typo) holding anything. */
const callOptions = fc.oneof(
  fc.constant(undefined),
  value,
  fc.record(
    {
      signal: fc.oneof(fc.constant(undefined), fc.constant("live-signal"), value),
      schema: fc.oneof(fc.constant(standardSchema), value),
      timeout: fc.oneof(number, value),
      retry,
      timout: value,
    },
    { requiredKeys: [] },
  ),
);
/** The live signal is made per run: a generated value cannot be an AbortSignal. */
const withSignal = (options: unknown) =>
  typeof options === "object" && options !== null && (options as { signal?: unknown }).signal === "live-signal" ? { ...options, signal: new AbortController().signal } : options;

type Method = "discover" | "getHub" | "getLeaderboard" | "getHolder" | "getStakeStatus";
const methods: Method[] = ["discover", "getHub", "getLeaderboard", "getHolder", "getStakeStatus"];
const query = fc.oneof(value, fc.record({ limit: fc.oneof(number, value), limt: value }, { requiredKeys: [] }));

/** The segments of a path sent, decoded, after the base address. */
const segmentsOf = (url: string) => new URL(url).pathname.slice(new URL(BASE).pathname.length + 1).split("/").map(decodeURIComponent);

/** Runs a call and checks the one promise: it works, or a HubValidationError with nothing sent. */
async function worksOrRefused(call: () => Promise<unknown>, seen: readonly unknown[]) {
  const result = await settle(call, 1_000);
  expect(result.settled).toBe(true);
  if (result.error !== undefined) {
    expect(result.error).toBeInstanceOf(HubValidationError);
    expect(seen).toHaveLength(0);
    return false;
  }
  return true;
}

describe("any input to a read works or is a HubValidationError with nothing sent", () => {
  it(
    "reads: every method, any argument, any per-call options",
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...methods), fc.oneof(text, value), query, callOptions, async (method, wallet, leaderboardQuery, options) => {
          const { fetch, seen } = scriptedFetch([json(200, { ok: true })]);
          const hub = new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off", fetch });
          const argument = method === "getLeaderboard" ? leaderboardQuery : wallet;
          const run = () => (method === "discover" || method === "getHub" ? hub[method](withSignal(options) as never) : hub[method](argument as never, withSignal(options) as never));
          if (!(await worksOrRefused(run, seen))) return;
          expect(seen).toHaveLength(1);
          const url = new URL(seen[0]!.url);
          if (method === "discover") expect(url.href).toBe(BASE);
          else expect(segmentsOf(url.href).slice(0, 2)).toEqual(["hub", "alpha"]);
          if (method === "getHolder") expect(segmentsOf(url.href)).toEqual(["hub", "alpha", "holder", argument]);
          if (method === "getStakeStatus") expect([...url.searchParams]).toEqual([["wallet", argument]]);
          if (method === "getLeaderboard") {
            const limit = (argument as { limit?: unknown } | undefined)?.limit;
            expect([...url.searchParams]).toEqual(limit === undefined ? [] : [["limit", String(limit)]]);
            if (limit !== undefined) expect(Number(url.searchParams.get("limit"))).toBe(limit);
          }
        }),
        params(150),
      );
    },
    timeoutFor(20_000),
  );

  it(
    "constructors: any options; once built, the hub slug sent decodes back to what was given",
    async () => {
      const names = ["clientId", "hub", "timeout", "retry", "rateLimit", "headers", "dedupeReads", "logLevel", "logger", "onRequest", "timout", "retries", "secret", "__proto__"];
      const options = fc.dictionary(fc.constantFrom(...names), fc.oneof(value, retry, fc.constant({ maxConcurrency: 2 }), fc.constant({ "x-app": "1" })), { maxKeys: 4 });
      await fc.assert(
        fc.asyncProperty(text, fc.oneof(fc.constant("pk_alpha"), text), options, fc.boolean(), async (slug, clientId, extra, server) => {
          const { fetch, seen } = scriptedFetch([json(200, { ok: true })]);
          const given = { baseUrl: BASE, clientId, hub: slug, logLevel: "off", ...extra, fetch };
          let client: HubClient;
          try {
            client = server ? new HubServerClient({ secret: "s3cret", ...given } as never) : new HubClient(given as never);
          } catch (error) {
            expect(error).toBeInstanceOf(HubValidationError);
            return;
          }
          if (!(await worksOrRefused(() => client.getHub(), seen))) return;
          expect(segmentsOf(seen[0]!.url)).toEqual(["hub", client.hub]);
          expect(seen[0]!.headers.get("x-api-key")).toBe(given.clientId);
        }),
        params(150),
      );
    },
    timeoutFor(20_000),
  );
});

describe("any award works or is a HubValidationError with nothing sent", () => {
  const field = fc.oneof(text, number, value);
  const award = fc.oneof(
    value,
    fc.record({ wallet: fc.oneof(text, field), amount: fc.oneof(number, field), reason: fc.oneof(text, field), ref: fc.oneof(text, field), kind: fc.oneof(text, field), reson: field }, { requiredKeys: [] }),
    // Inherited fields, which JSON.stringify would not send.
    fc.record({ wallet: text, ref: text, amount: number }).map(({ amount, ...own }) => Object.assign(Object.create({ amount }) as object, own)),
  );

  it(
    "awardPoints: the body sent is the award's own fields, exactly",
    async () => {
      await fc.assert(
        fc.asyncProperty(award, callOptions, async (input, options) => {
          const { fetch, seen } = scriptedFetch([json(200, { ok: true })]);
          const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s3cret", logLevel: "off", fetch });
          if (!(await worksOrRefused(() => server.awardPoints(input as never, withSignal(options) as never), seen))) return;
          expect(seen).toHaveLength(1);
          expect(segmentsOf(seen[0]!.url)).toEqual(["hub", "alpha", "bits", "earn"]);
          // What was checked is what was sent: the own enumerable fields, and nothing inherited.
          expect(seen[0]!.body).toBe(JSON.stringify({ ...(input as object) }));
          const sent = JSON.parse(seen[0]!.body!) as Record<string, unknown>;
          expect(typeof sent.wallet === "string" && sent.wallet.trim() !== "").toBe(true);
          expect(typeof sent.ref === "string" && sent.ref.trim() !== "").toBe(true);
          expect(typeof sent.kind === "string" || (typeof sent.amount === "number" && sent.amount > 0)).toBe(true);
        }),
        params(200),
      );
    },
    timeoutFor(20_000),
  );
});
