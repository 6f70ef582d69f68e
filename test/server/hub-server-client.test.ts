import { inspect } from "node:util";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BadRequestError, ForbiddenError, HubAbortError, HubValidationError, NotFoundError, UnauthorizedError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { createHubMock } from "public-hub-sdk/mock";
import * as build from "../../src/server/index";
import { useHubMock } from "../helpers/mock-server";
import { rawSign } from "../helpers/raw-sign";
import { SECRET, SIGNING_KEY, serverClient } from "../helpers/server-client";
import { ioTurns, until } from "../helpers/real-io";

const { mock, server } = useHubMock();
const client = (overrides = {}) => serverClient(mock.baseUrl, overrides);
const WALLET = "0xabc";
const award = { wallet: WALLET, amount: 10, reason: "quest", ref: "quest-42:0xabc" };
const earnRequests = () => mock.requests.filter((r) => r.method === "POST");

afterEach(() => {
  vi.useRealTimers();
});

describe("awardPoints", () => {
  it("sends a signed award the mock accepts, and returns the answer whole", async () => {
    const result = await client().awardPoints(award);
    expect(result).toEqual({ ok: true, hub: "alpha", wallet: WALLET, ref: award.ref, awarded: 10, balance: 10, duplicate: false });
    const [sent] = earnRequests();
    expect(sent!.body).toBe(JSON.stringify(award));
    expect(sent!.headers["content-type"]).toBe("application/json");
    expect(sent!.headers["x-api-timestamp"]).toMatch(/^\d{10}$/);
    // Checked with an independent signer over exactly what was sent.
    const path = new URL(sent!.url).pathname;
    expect(sent!.headers["x-api-signature"]).toBe(rawSign(SECRET, sent!.headers["x-api-timestamp"]!, "POST", path, sent!.body));
  });

  it("sends the kind shape", async () => {
    const result = await client().awardPoints({ wallet: WALLET, kind: "daily-login", ref: "login-2026-11-22:0xabc" });
    expect(result).toMatchObject({ awarded: 5, balance: 5 });
    expect(JSON.parse(earnRequests()[0]!.body)).toEqual({ wallet: WALLET, kind: "daily-login", ref: "login-2026-11-22:0xabc" });
  });

  it("works from a derived signing key instead of the secret", async () => {
    await expect(client({ secret: undefined, signingKey: SIGNING_KEY }).awardPoints(award)).resolves.toMatchObject({ awarded: 10 });
  });

  it("award input is exact: a misspelt field is a compile error and a HubValidationError, nothing sent", async () => {
    // @ts-expect-error `reson` is not a field of an award
    const error = await client().awardPoints({ wallet: WALLET, amount: 1, reson: "typo", ref: "r-typo" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([
      { path: ["reson"], code: "unrecognized_keys", message: 'unknown field "reson": this award takes wallet, amount, reason, ref' },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it("a kind award takes no reason", async () => {
    // @ts-expect-error `reason` belongs to the amount shape
    const error = await client().awardPoints({ wallet: WALLET, kind: "daily-login", reason: "x", ref: "r" }).catch((e: unknown) => e);
    expect((error as HubValidationError).issues).toEqual([
      { path: ["reason"], code: "unrecognized_keys", message: 'unknown field "reason": this award takes wallet, kind, ref' },
    ]);
    expect(mock.requests).toHaveLength(0);
  });

  it("the same ref twice credits once", async () => {
    const first = await client().awardPoints(award);
    const replay = await client().awardPoints(award);
    expect(first).toMatchObject({ duplicate: false, balance: 10 });
    expect(replay).toMatchObject({ duplicate: true, balance: 10 });
    expect(mock.ledger).toHaveLength(1);
    expect(mock.balanceOf("alpha", WALLET)).toBe(10);
  });

  it.each(["network-error", 502, 503, 504] as const)("an answer lost as %s: the call succeeds and the ledger has one credit", async (how) => {
    mock.loseNextWrites(2, how);
    const result = await client().awardPoints(award);
    expect(result).toMatchObject({ ref: award.ref, balance: 10, duplicate: true });
    expect(earnRequests()).toHaveLength(3);
    expect(mock.ledger).toHaveLength(1);
    const bodies = new Set(earnRequests().map((r) => r.body));
    expect(bodies.size).toBe(1); // same body and ref on every attempt
  });

  it("an empty 2xx answer is an accepted award", async () => {
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => new HttpResponse(null, { status: 204 })));
    await expect(client().awardPoints(award)).resolves.toEqual({});
  });

  it.each([
    [400, BadRequestError],
    [401, UnauthorizedError],
    [403, ForbiddenError],
    [404, NotFoundError],
  ])("never retries a %i", async (status, ErrorClass) => {
    let attempts = 0;
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => (attempts++, HttpResponse.json({ code: "x" }, { status }))));
    await expect(client().awardPoints(award)).rejects.toBeInstanceOf(ErrorClass);
    expect(attempts).toBe(1);
  });

  it("a key of another hub is refused with 403", async () => {
    await expect(client({ clientId: "pk_beta_demo" }).awardPoints(award)).rejects.toBeInstanceOf(ForbiddenError);
    expect(mock.ledger).toHaveLength(0);
  });

  it("a wrong secret is refused with 401 and not retried", async () => {
    const error = await client({ secret: "wrong" }).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ code: "invalid_signature" });
    expect(earnRequests()).toHaveLength(1);
  });
});

describe("each attempt is signed just before it is sent", () => {
  const fakeClock = () => vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });

  it("a retry after Retry-After gets a fresh timestamp and signature, same body", async () => {
    fakeClock();
    mock.rateLimitNext(1, 2);
    const pending = client().awardPoints(award);
    await until(() => earnRequests().length === 1);
    await ioTurns(50); // its 429 read, the retry's timer set
    await vi.advanceTimersByTimeAsync(2_300); // Retry-After plus the gate's jitter (at most 2000 / 10 + 50 ms)
    await expect(pending).resolves.toMatchObject({ awarded: 10 });
    const [first, second] = earnRequests();
    expect(Number(second!.headers["x-api-timestamp"]) - Number(first!.headers["x-api-timestamp"])).toBeGreaterThanOrEqual(2);
    expect(second!.headers["x-api-signature"]).not.toBe(first!.headers["x-api-signature"]);
    expect(second!.body).toBe(first!.body);
  });

  it("a retry waiting longer than the 300 s window still lands (signed at send, not when queued)", async () => {
    fakeClock();
    mock.rateLimitNext(1, 400);
    const pending = client({ retry: { maxRetryAfter: 600_000 } }).awardPoints(award);
    await until(() => earnRequests().length === 1);
    await ioTurns(50);
    await vi.advanceTimersByTimeAsync(401_100); // Retry-After plus at most 1 s of the gate's jitter
    await expect(pending).resolves.toMatchObject({ awarded: 10 });
    expect(mock.ledger).toHaveLength(1);
  });
});

describe("validation before sending", () => {
  it.each([
    ["an empty wallet", { ...award, wallet: "" }],
    ["a missing wallet", { amount: 1, ref: "r" }],
    ["amount 0", { ...award, amount: 0 }],
    ["a negative amount", { ...award, amount: -5 }],
    ["amount NaN", { ...award, amount: Number.NaN }],
    ["amount Infinity", { ...award, amount: Number.POSITIVE_INFINITY }],
    ["amount as a string", { ...award, amount: "10" }],
    ["a missing ref", { wallet: WALLET, amount: 1 }],
    ["an empty ref", { ...award, ref: " " }],
    ["an empty kind", { wallet: WALLET, kind: "", ref: "r" }],
    ["both amount and kind", { ...award, kind: "daily-login" }],
    ["neither amount nor kind", { wallet: WALLET, ref: "r" }],
    ["a non-string reason", { ...award, reason: 5 }],
    ["no award at all", undefined],
    ["an array", [award]],
    ["null", null],
  ])("%s → HubValidationError, nothing sent", async (_name, input) => {
    const error = await client().awardPoints(input as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect(mock.requests).toHaveLength(0);
  });

  it("names the field", async () => {
    await expect(client().awardPoints({ ...award, amount: -1 })).rejects.toThrow("amount: amount must be greater than 0");
  });

  it.each([
    ["no secret", { secret: undefined }],
    ["an empty secret", { secret: "" }],
    ["a malformed signing key", { secret: undefined, signingKey: "abc" }],
  ])("the constructor refuses %s", (_name, overrides) => {
    expect(() => client(overrides)).toThrow(HubValidationError);
  });

  it("new HubServerClient(undefined) or (null) is a validation error, not a TypeError", () => {
    for (const options of [undefined, null]) {
      expect(() => new HubServerClient(options as never)).toThrow(HubValidationError);
    }
  });

  it("a missing secret says that secret or signingKey is needed and hints at the environment", () => {
    expect(() => client({ secret: undefined })).toThrow(
      "Invalid client options: secret: give `secret` or `signingKey` (is the environment variable that holds it set?)",
    );
  });
});

describe("clock skew", () => {
  it.each([
    ["+1 h", 3_600_000],
    ["-1 h", -3_600_000],
  ])("server clock %s: the award succeeds once, later writes sign in server time", async (_name, offset) => {
    mock.setClockOffset(offset);
    const hub = client();
    await expect(hub.awardPoints(award)).resolves.toMatchObject({ awarded: 10 });
    expect(earnRequests().map((r) => r.headers["x-api-timestamp"])).toHaveLength(2); // refused once, then corrected
    expect(Math.abs(hub.clockOffsetMs - offset)).toBeLessThan(5_000); // Date has whole seconds, plus processing time
    await hub.awardPoints({ ...award, ref: "second" });
    expect(earnRequests()).toHaveLength(3); // no refusal this time
    expect(mock.ledger).toHaveLength(2);
  });

  it("a read is enough to learn the offset before the first write", async () => {
    mock.setClockOffset(-7_200_000);
    const hub = client();
    await hub.getHub();
    await hub.awardPoints(award);
    expect(earnRequests()).toHaveLength(1);
  });

  it.each([400, 403] as const)("servers refusing the window with %i are corrected too", async (status) => {
    const other = createHubMock({ signatureFailureStatus: status, clockOffsetMs: 3_600_000 });
    server.use(...other.handlers);
    await expect(client().awardPoints(award)).resolves.toMatchObject({ awarded: 10 });
    expect(other.ledger).toHaveLength(1);
  });

  /** One refusal whose Date is `seconds` away from the timestamp the write was signed with. */
  const refuseOnceAt = (seconds: number, status = 401, headers: Record<string, string> = {}) =>
    server.use(
      http.post(
        `${mock.baseUrl}/hub/alpha/bits/earn`,
        ({ request }) => {
          const signedAt = Number(request.headers.get("x-api-timestamp"));
          const date = new Date((signedAt + seconds) * 1000).toUTCString();
          return HttpResponse.json({ error: { code: "timestamp_out_of_window", message: "late" } }, { status, headers: { date, ...headers } });
        },
        { once: true },
      ),
    );

  it.each([299, -299])("a refusal whose Date is %i s from the signed time is retried once, in server time", async (seconds) => {
    refuseOnceAt(seconds);
    await expect(client().awardPoints(award)).resolves.toMatchObject({ awarded: 10 });
    expect(mock.ledger).toHaveLength(1);
  });

  it.each([298, -298, 0])("a refusal whose Date is only %i s off is the server's answer (2 s margin for whole seconds)", async (seconds) => {
    refuseOnceAt(seconds);
    await expect(client().awardPoints(award)).rejects.toMatchObject({ status: 401, code: "timestamp_out_of_window" });
    expect(mock.ledger).toHaveLength(0);
  });

  it("a skewed Date on a 404 or a 500 is no reason to re-sign", async () => {
    refuseOnceAt(3_600, 404);
    await expect(client().awardPoints(award)).rejects.toBeInstanceOf(NotFoundError);
    refuseOnceAt(3_600, 501);
    await expect(client().awardPoints(award)).rejects.toMatchObject({ status: 501 });
    expect(mock.ledger).toHaveLength(0);
  });

  it("a cached refusal (Age) tells nothing about the clock", async () => {
    refuseOnceAt(3_600, 401, { age: "0" });
    await expect(client().awardPoints(award)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(mock.ledger).toHaveLength(0);
  });

  it("a 401 that is not about time is not retried", async () => {
    await expect(client({ secret: "wrong" }).awardPoints(award)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(earnRequests()).toHaveLength(1);
  });

  it("without a Date header a skewed write fails with the server's 401", async () => {
    server.use(...createHubMock({ sendDateHeader: false, clockOffsetMs: 3_600_000 }).handlers);
    const error = await client().awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, code: "timestamp_out_of_window" });
  });
});

describe("the secret never leaves", () => {
  it("no request carries the secret or the signing key", async () => {
    mock.loseNextWrites(1);
    const hub = client();
    await hub.discover();
    await hub.getHub();
    await hub.awardPoints(award);
    await hub.awardPoints({ wallet: WALLET, kind: "daily-login", ref: "k" });
    await client({ secret: "wrong" }).awardPoints(award).catch(() => undefined);
    const everything = JSON.stringify(mock.requests);
    expect(mock.requests.length).toBeGreaterThanOrEqual(5);
    expect(everything).not.toContain(SECRET);
    expect(everything).not.toContain(SIGNING_KEY);
  });

  it("inspect, JSON.stringify, String and console.log show neither", () => {
    const logged: unknown[] = [];
    vi.spyOn(console, "log").mockImplementation((...args) => void logged.push(...args));
    const hub = client();
    const keyed = client({ secret: undefined, signingKey: SIGNING_KEY });
    for (const instance of [hub, keyed]) {
      console.log(instance);
      const shown = [inspect(instance, { showHidden: true, depth: 10 }), JSON.stringify(instance), String(instance), inspect(logged)].join("\n");
      expect(shown).not.toContain(SECRET);
      expect(shown).not.toContain(SIGNING_KEY);
      expect(Object.values(instance).join()).not.toContain(SECRET);
    }
    expect(inspect(hub)).toContain("alpha");
  });

  it("errors from awards show neither", async () => {
    const errors: unknown[] = [];
    for (const overrides of [{ secret: "wrong" }, { clientId: "pk_beta_demo" }, { signingKey: SIGNING_KEY, secret: undefined, clientId: "nope" }]) {
      errors.push(await client(overrides).awardPoints(award, { retry: 0 }).catch((e: unknown) => e));
    }
    mock.failNext(1, { status: 500 });
    errors.push(await client().awardPoints({ ...award, ref: "x" }, { retry: 0 }).catch((e: unknown) => e));
    errors.push(await client().awardPoints({ ...award, amount: -1 }).catch((e: unknown) => e));
    expect(errors.map((e) => (e as Error).name)).toEqual(["UnauthorizedError", "ForbiddenError", "UnauthorizedError", "ServerError", "HubValidationError"]);
    for (const e of errors) {
      const shown = [inspect(e, { showHidden: true, depth: 10 }), JSON.stringify(e), String(e)].join("\n");
      expect(shown).not.toContain(SECRET);
      expect(shown).not.toContain(SIGNING_KEY);
    }
  });

  it("a refused secret or signing key is not shown by its construction error", () => {
    const badKey = `${SIGNING_KEY}X`; // one character too many: refused
    const cases = [{ signingKey: badKey, secret: undefined }, { secret: "   " }, { secret: 42 as unknown as string }];
    for (const overrides of cases) {
      const error = (() => {
        try {
          client(overrides);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(HubValidationError);
      const shown = [inspect(error, { showHidden: true, depth: 10 }), JSON.stringify(error), String(error)].join("\n");
      expect(shown).not.toContain(badKey);
    }
  });

  it("dangerouslyAllowBrowser must be a boolean", () => {
    expect(() => client({ dangerouslyAllowBrowser: "yes" as never })).toThrow(
      expect.objectContaining({
        message: "Invalid client options: dangerouslyAllowBrowser: dangerouslyAllowBrowser must be true or false",
        issues: [{ path: ["dangerouslyAllowBrowser"], code: "invalid_type", message: "dangerouslyAllowBrowser must be true or false" }],
      }),
    );
  });

  it("the server client is a HubClient with all reads", async () => {
    const hub = new HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: SECRET });
    await expect(hub.getLeaderboard({ limit: 1 })).resolves.toMatchObject({ limit: 1 });
    await expect(hub.getHolder(WALLET)).resolves.toMatchObject({ wallet: WALLET });
  });
});

describe("the signing build's client", () => {
  it("signs with WebCrypto, and the mock accepts its signature", async () => {
    expect(build.signerImplementation).toBe("webcrypto");
    const hub = new build.HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: SECRET, logLevel: "off" });
    await expect(hub.awardPoints({ ...award, ref: "build-webcrypto" })).resolves.toMatchObject({ awarded: 10 });
    expect(mock.ledger).toHaveLength(1);
  });
});

describe("failures before anything is signed or sent", () => {
  it("an award aborted before it starts is a HubAbortError, nothing sent", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(client().awardPoints(award, { signal: controller.signal })).rejects.toBeInstanceOf(HubAbortError);
    expect(mock.requests).toHaveLength(0);
  });

  it("a refusal with an unreadable Date is the server's answer", async () => {
    server.use(
      http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => HttpResponse.json({ code: "nope" }, { status: 401, headers: { date: "not a date" } }), { once: true }),
    );
    await expect(client().awardPoints(award)).rejects.toMatchObject({ status: 401, code: "nope" });
    expect(mock.ledger).toHaveLength(0);
  });
});
