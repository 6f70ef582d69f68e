/**
 * README: "Bad input is a HubValidationError and nothing is sent" and "Slugs and wallets are
 * percent-encoded as single path segments" — whatever a JavaScript caller hands in, typed or not.
 * Any input to any constructor or method either works or throws a HubValidationError with nothing
 * sent; every path segment and query value sent decodes back to what was given.
 */
// @ts-nocheck

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubClient, HubResponseError, HubValidationError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { json, scriptedFetch } from "./answers";
import { params, timeoutFor } from "./settings";
import { settle } from "./settle";

const BASE = "https://h.test/api/v1";

/** Text of any UTF-16 code units: lone surrogates, controls, `/`, `?`, `#`, `%`, `.`… */
const units = fc.string({ unit: fc.nat(0xffff).map((code) => String.fromCharCode(code)), maxLength: 12 });
const text = fc.oneof(units, fc.string({ unit: "binary", maxLength: 12 }), fc.constantFrom("", " ", ".", "..", "...", "a/b", "%2F", "?x=1#y", "\ud800", "w😀", "0xabc"));
const number = fc.oneof(fc.integer(), fc.double(), fc.bigInt(), fc.constantFrom(0, -0, 1, 2 ** 31, 2 ** 31 - 1, 2 ** 53, 1e21, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity));
/** Mostly a valid value (so that one bad field at a time reaches the code behind the checks), sometimes junk. */
const mostly = <T, U>(valid: fc.Arbitrary<T>, junk: fc.Arbitrary<U>) => fc.oneof({ weight: 4, arbitrary: valid }, { weight: 1, arbitrary: junk });

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
      signal: mostly(fc.constantFrom(undefined, "live-signal"), value),
      schema: mostly(fc.constant(standardSchema), value),
      timeout: mostly(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.oneof(number, value)),
      retry: mostly(fc.record({ limit: fc.nat(3), backoff: fc.nat(10) }, { requiredKeys: [] }), retry),
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
    "awardPoints: the body sent is the award's declared fields as read, exactly",
    async () => {
      await fc.assert(
        fc.asyncProperty(award, callOptions, async (input, options) => {
          const { fetch, seen } = scriptedFetch([json(200, { ok: true })]);
          const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s3cret", logLevel: "off", fetch });
          if (!(await worksOrRefused(() => server.awardPoints(input as never, withSignal(options) as never), seen))) return;
          expect(seen).toHaveLength(1);
          expect(segmentsOf(seen[0]!.url)).toEqual(["hub", "alpha", "bits", "earn"]);
          // What was checked is what was sent: each declared field read by property access, in the caller's order.
          const declared = ["wallet", "amount", "reason", "kind", "ref"];
          const keys = [...new Set([...Object.keys(input as object), ...declared])].filter((key) => declared.includes(key));
          const read = Object.fromEntries(keys.map((key) => [key, (input as Record<string, unknown>)[key]]).filter(([, value]) => value !== undefined));
          expect(seen[0]!.body).toBe(JSON.stringify(read));
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

describe("the server entry's other functions: any input works or is a HubValidationError", () => {
  // No journal path: a generated string would be a file created in the working directory.
  const campaignOptions = fc.oneof(
    fc.constant(undefined),
    value.filter((v) => typeof v !== "string"),
    fc.constant({ concurency: 2 }),
    fc.record(
      {
        concurrency: mostly(fc.integer({ min: 1, max: 4 }), fc.oneof(number, value)),
        maxFailures: mostly(fc.integer({ min: 1, max: 4 }), number),
        signal: mostly(fc.constant("live-signal"), value),
        onProgress: mostly(fc.constant(() => undefined), value),
        total: mostly(fc.nat(), number),
        dryRun: mostly(fc.boolean(), value),
        journal: mostly(fc.constant({ load: async () => [], record: async () => undefined }), fc.oneof(fc.constant({}), fc.constant({ load: 1, record: 2 }), number)),
        hub: mostly(text, value),
      },
      { requiredKeys: [] },
    ),
  );
  const rows = mostly(fc.array(fc.oneof(value, fc.record({ wallet: text, amount: number, ref: text }, { requiredKeys: [] })), { maxLength: 4 }), value);

  it(
    "awardMany and dryRunAwards: a summary, or a HubValidationError before anything is sent",
    async () => {
      const { dryRunAwards } = await import("public-hub-sdk/server");
      // The campaign code is imported on first use: once, in real time, before fake time starts.
      await new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s3cret" }).awardMany([]);
      await dryRunAwards([]);
      await fc.assert(
        fc.asyncProperty(rows, campaignOptions, fc.boolean(), async (awards, options, dry) => {
          const { fetch, seen } = scriptedFetch([json(200, { ok: true })]);
          const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s3cret", logLevel: "off", fetch });
          const run = () => (dry ? dryRunAwards(awards as never, withSignal(options) as never) : server.awardMany(awards as never, withSignal(options) as never));
          const result = await settle(run, 5_000);
          expect(result.settled).toBe(true);
          if (result.error !== undefined) {
            expect(result.error).toBeInstanceOf(HubValidationError);
            expect(seen).toHaveLength(0);
          } else {
            expect(result.value).toMatchObject({ total: expect.any(Number), failed: expect.any(Array) });
          }
          if (dry) expect(seen).toHaveLength(0);
        }),
        params(150),
      );
    },
    timeoutFor(20_000),
  );

  it("signRequest, deriveSigningKey and leaderboardRows take anything", async () => {
    const { signRequest, deriveSigningKey, leaderboardRows } = await import("public-hub-sdk/server");
    const signInput = fc.oneof(value, fc.record({ secret: fc.oneof(text, value), signingKey: fc.oneof(fc.constant("a".repeat(64)), value), timestamp: fc.oneof(text, value), method: fc.oneof(text, value), path: fc.oneof(text, value), body: fc.oneof(text, value) }, { requiredKeys: [] }));
    await fc.assert(
      fc.asyncProperty(signInput, value, value, async (input, secret, board) => {
        for (const run of [() => signRequest(input as never), () => deriveSigningKey(secret as never)]) {
          const outcome = await run().then(
            (signature) => expect(signature).toMatch(/^[0-9a-f]{64}$/),
            (error: unknown) => expect(error).toBeInstanceOf(HubValidationError),
          );
          void outcome;
        }
        // Rows, or a HubResponseError naming what it saw: never a raw TypeError, never [] for a shape it does not know.
        try {
          expect(Array.isArray(leaderboardRows(board as never))).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(HubResponseError);
        }
      }),
      params(200),
    );
  }, timeoutFor(20_000));
});
