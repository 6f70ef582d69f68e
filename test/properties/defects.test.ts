/**
 * The ten defects the property run of issue 22 found, each as the plain example that reproduced
 * it on the code before the fix (every one of these failed there).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient, HubConnectionError, HubRedirectError, HubTimeoutError, HubValidationError, ServerError, UnauthorizedError, leaderboardRows } from "public-hub-sdk";
import { HubServerClient, dryRunAwards } from "public-hub-sdk/server";
import { json, scriptedFetch, type Answer } from "./answers";
import { settle } from "./settle";

const BASE = "https://h.test/api/v1";
const options = (fetch: typeof globalThis.fetch) => ({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off" as const, retry: { limit: 1, backoff: 1 }, fetch });
const reader = (fetch: typeof globalThis.fetch, extra: object = {}) => new HubClient({ ...options(fetch), ...extra });
const writer = (fetch: typeof globalThis.fetch, extra: object = {}) => new HubServerClient({ ...options(fetch), secret: "s3cret", ...extra });
const award = { wallet: "0xabc", amount: 5, ref: "quest-1:0xabc" };

const cut = (status: number, kind: "reset" | "stall", text = '{"slug":"al'): Answer => ({ kind: "response", status, headers: { "content-type": "application/json" }, body: { kind, text } });
const redirect = (location: string): Answer => ({ kind: "response", status: 302, headers: { location }, body: { kind: "text", text: "" } });
const httpDate = (ms: number) => new Date(ms).toUTCString();

afterEach(() => {
  vi.useRealTimers();
});

describe("1. a 2xx whose body is reset mid-stream", () => {
  it("is a failed attempt: retried, then a HubConnectionError, never a raw TypeError", async () => {
    const { fetch, seen } = scriptedFetch([cut(200, "reset")]);
    const error = await reader(fetch).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(seen).toHaveLength(2);
  });

  it("a retry that gets the whole body gives the data", async () => {
    const { fetch } = scriptedFetch([cut(200, "reset"), json(200, { slug: "alpha" })]);
    await expect(reader(fetch).getHub()).resolves.toEqual({ slug: "alpha" });
  });

  it("a write whose 2xx body was cut was applied: the verdict says so", async () => {
    const { fetch } = scriptedFetch([cut(200, "reset", '{"ok":tr')]);
    const error = await writer(fetch, { retry: 0 }).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true });
  });
});

describe("2. a stalled body is bounded by the per-attempt timeout", () => {
  it.each([200, 503])("a %i whose body never ends times out with its attempt", async (status) => {
    const { fetch, seen } = scriptedFetch([cut(status, "stall")]);
    const result = await settle(() => reader(fetch, { timeout: 200 }).getHub(), 3_000);
    expect(result.settled).toBe(true);
    expect(result.error).toBeInstanceOf(HubTimeoutError);
    expect(seen).toHaveLength(2); // the timeout is per attempt: the retry got its own
    expect(result.elapsed).toBeLessThan(2 * 200 + 50);
  });
});

describe("3. the verdict spans every attempt of an award", () => {
  it("a timeout, then a 302: the redirect error says it may have been applied", async () => {
    const { fetch, seen } = scriptedFetch([{ kind: "stall-headers" }, redirect(`${BASE}/elsewhere`)]);
    const result = await settle(() => writer(fetch, { timeout: 100 }).awardPoints(award));
    expect(seen).toHaveLength(2);
    expect(result.error).toBeInstanceOf(HubRedirectError);
    expect(result.error).toMatchObject({ mayHaveBeenApplied: true });
  });

  it("a reset, then a 401 showing an hour of skew, then any failure: still may have been applied", async () => {
    const skewed = { date: httpDate(Date.now() + 3_600_000) };
    const { fetch, seen } = scriptedFetch([{ kind: "network", code: "ECONNRESET" }, json(401, { code: "invalid_timestamp" }, skewed), json(401, { code: "invalid_signature" })]);
    const error = await writer(fetch).awardPoints(award).catch((e: unknown) => e);
    expect(seen).toHaveLength(3); // the reset, its retry, and the one re-send for the clock
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true });
    expect((error as Error).message).toContain("It may have been applied");
  });
});

describe("4. what is checked is exactly what is sent", () => {
  it("an inherited amount is read, as its type describes it, and sent", async () => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    const inherited = Object.assign(Object.create({ amount: 5 }) as object, { wallet: "w", ref: "r" });
    await writer(fetch).awardPoints(inherited as typeof award);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ wallet: "w", ref: "r", amount: 5 });
  });

  it("a class getter is read, once, and sent", async () => {
    class Award {
      wallet = "w";
      ref = "r";
      get amount() {
        return 5;
      }
    }
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await writer(fetch).awardPoints(new Award() as typeof award);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ wallet: "w", ref: "r", amount: 5 });
  });

  it("an own getter is read once: the value checked is the value sent", async () => {
    let reads = 0;
    const shifty = { wallet: "w", ref: "r", get amount() { return reads++ === 0 ? 5 : -1; } };
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await writer(fetch).awardPoints(shifty);
    expect(JSON.parse(seen[0]!.body!)).toEqual({ wallet: "w", ref: "r", amount: 5 });
  });
});

describe("5. lone surrogates are refused before anything is sent", () => {
  it.each(["\udc00", "a\ud800b"])("getHolder and getStakeStatus of %j", async (wallet) => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await expect(reader(fetch).getHolder(wallet)).rejects.toBeInstanceOf(HubValidationError);
    await expect(reader(fetch).getStakeStatus(wallet)).rejects.toBeInstanceOf(HubValidationError);
    expect(seen).toHaveLength(0);
  });

  it("a hub slug with one is refused by the constructor", () => {
    expect(() => new HubClient({ ...options(fetch), hub: "\ud800" })).toThrow(HubValidationError);
  });

  it("a wallet with a whole surrogate pair is sent as it is", async () => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await reader(fetch).getStakeStatus("w😀");
    expect(new URL(seen[0]!.url).searchParams.get("wallet")).toBe("w😀");
  });
});

describe("6. a timeout beyond what timers can hold", () => {
  it("is refused in the client options and per call", async () => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    expect(() => reader(fetch, { timeout: 2_147_483_648 })).toThrow(/timeout/);
    await expect(reader(fetch).getHub({ timeout: 2_147_483_648 })).rejects.toBeInstanceOf(HubValidationError);
    await expect(reader(fetch, { timeout: 2_147_483_647 }).getHub()).resolves.toEqual({});
    expect(seen).toHaveLength(1);
  });
});

describe("7. a same-origin Location carrying credentials", () => {
  it("is not followed: a HubRedirectError, not the Request constructor's TypeError", async () => {
    const { fetch, seen } = scriptedFetch([redirect("https://user:pw@h.test/api/v1/hub/alpha")]);
    await expect(reader(fetch).getHub()).rejects.toBeInstanceOf(HubRedirectError);
    expect(seen).toHaveLength(1);
  });
});

describe("8. only a plausible, fresh Date moves the signing clock", () => {
  it.each(["0", "-1", "1.", "Thu, 01 Jan 1970 00:00:00 GMT", "garbage"])("Date: %j changes nothing", async (date) => {
    const { fetch, seen } = scriptedFetch([json(200, { slug: "alpha" }, { date }), json(200, {})]);
    const server = writer(fetch);
    await server.getHub();
    expect(server.clockOffsetMs).toBe(0);
    await server.awardPoints(award);
    expect(Math.abs(Number(seen[1]!.headers.get("x-api-timestamp")) - Date.now() / 1000)).toBeLessThan(5);
  });

  it("a real Date an hour ahead still moves it", async () => {
    const { fetch } = scriptedFetch([json(200, { slug: "alpha" }, { date: httpDate(Date.now() + 3_600_000) })]);
    const server = writer(fetch);
    await server.getHub();
    expect(server.clockOffsetMs).toBeGreaterThan(3_590_000);
  });

  it("a 401 with a junk Date is not taken for skew: no re-send", async () => {
    const { fetch, seen } = scriptedFetch([json(401, { code: "invalid_signature" }, { date: "0" })]);
    await expect(writer(fetch).awardPoints(award)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(seen).toHaveLength(1);
  });
});

describe("9. per-call options are checked before anything is sent", () => {
  const bad: Array<[string, unknown]> = [
    ["null options", null],
    ["a string for options", "fast"],
    ["a signal that is not an AbortSignal", { signal: { aborted: false } }],
    ["a schema without ~standard", { schema: { parse: () => 1 } }],
    ["a BigInt retry", { retry: 1n }],
    ["a BigInt timeout", { timeout: 1n }],
    ["a BigInt in retry options", { retry: { limit: 1n } }],
    ["an unknown per-call option", { timout: 100 }],
  ];
  it.each(bad)("%s", async (_name, callOptions) => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await expect(reader(fetch).getHub(callOptions as never)).rejects.toBeInstanceOf(HubValidationError);
    await expect(writer(fetch).awardPoints(award, callOptions as never)).rejects.toBeInstanceOf(HubValidationError);
    expect(seen).toHaveLength(0);
  });

  it("the client's BigInt retry or timeout is refused too", () => {
    expect(() => reader(fetch, { retry: 2n })).toThrow(HubValidationError);
    expect(() => reader(fetch, { timeout: 10n })).toThrow(HubValidationError);
  });
});

describe("10. a limit beyond the safe integers", () => {
  it.each([1e21, 2 ** 53])("getLeaderboard({ limit: %d }) is refused, nothing sent", async (limit) => {
    const { fetch, seen } = scriptedFetch([json(200, [])]);
    await expect(reader(fetch).getLeaderboard({ limit })).rejects.toBeInstanceOf(HubValidationError);
    expect(seen).toHaveLength(0);
  });

  it("the largest safe integer is sent as digits", async () => {
    const { fetch, seen } = scriptedFetch([json(200, [])]);
    await reader(fetch).getLeaderboard({ limit: Number.MAX_SAFE_INTEGER });
    expect(new URL(seen[0]!.url).searchParams.get("limit")).toBe("9007199254740991");
  });
});

it("a 5xx after a cut 2xx body keeps the verdict of the cut one", async () => {
  const { fetch } = scriptedFetch([cut(201, "reset"), json(503, { message: "busy" })]);
  const error = await writer(fetch).awardPoints(award).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ServerError);
  expect(error).toMatchObject({ mayHaveBeenApplied: true });
});

describe("found while writing the properties", () => {
  it("a write's 2xx with a body that is not JSON was applied: the award resolves, its text the data", async () => {
    const { fetch } = scriptedFetch([{ kind: "response", status: 200, headers: {}, body: { kind: "text", text: "<html>OK</html>" } }]);
    await expect(writer(fetch).awardPoints(award).withResponse()).resolves.toMatchObject({ data: "<html>OK</html>", duplicate: false, attempts: 1 });
  });

  it("a 4xx whose body stalls past the timeout was refused, not applied", async () => {
    const { fetch } = scriptedFetch([cut(400, "stall")]);
    const result = await settle(() => writer(fetch, { timeout: 100, retry: 0 }).awardPoints(award));
    expect(result.error).toBeInstanceOf(HubTimeoutError);
    expect(result.error).toMatchObject({ mayHaveBeenApplied: false });
  });
});

describe("found by the input property beyond the ten: campaigns check what they are handed", () => {
  const rows = [award];
  it.each<[string, unknown, unknown]>([
    ["awards that are not iterable", null, undefined],
    ["a number for awards", 5, undefined],
    ["a string for awards", "abc", undefined],
    ["null options", rows, null],
    ["an unknown option name", rows, { concurency: 2 }],
    ["a signal that is not an AbortSignal", rows, { signal: {} }],
    ["an onProgress that is not a function", rows, { onProgress: 1 }],
    ["a journal without load and record", rows, { journal: {} }],
    ["a concurrency of 1e21 (was a RangeError from Array.from)", rows, { concurrency: 1e21 }],
  ])("awardMany: %s is a HubValidationError, nothing sent", async (_name, awards, options) => {
    const { fetch, seen } = scriptedFetch([json(200, {})]);
    await expect(writer(fetch).awardMany(awards as never, options as never)).rejects.toBeInstanceOf(HubValidationError);
    expect(seen).toHaveLength(0);
  });

  it.each<[string, unknown, unknown]>([
    ["no awards", undefined, undefined],
    ["null options", [award], null],
    ["a journal without load and record", [award], { journal: { load: 1 } }],
  ])("dryRunAwards: %s is a HubValidationError", async (_name, awards, options) => {
    await expect(dryRunAwards(awards as never, options as never)).rejects.toBeInstanceOf(HubValidationError);
  });

  it("leaderboardRows of no object is an unusable answer, never an empty board", () => {
    expect(() => leaderboardRows(null as never)).toThrow(/no leaderboard rows found in a null/);
    expect(() => leaderboardRows(5 as never)).toThrow(/no leaderboard rows found in a number/);
  });
});
