// Exact edges of the server build: the issues of bad key options and bad signing input, the hex of
// a hash, the award path, an award's shape messages, what an award's result and error carry (its
// envelope, its attempts across a clock re-send, its signing diagnostics), and the browser build.
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { HubSchemaError, HubValidationError, ServerError, UnauthorizedError, type HubCallContext } from "public-hub-sdk";
import { awardPath, BrowserNotAllowedError, deriveSigningKey, HubServerClient, parseAward, signingPayload, signRequest } from "public-hub-sdk/server";
import { sha256Hex } from "../../src/server/signing";
import * as browser from "../../src/server/browser";
import { useHubMock } from "../helpers/mock-server";
import { serverClient, SIGNING_KEY } from "../helpers/server-client";

const { mock } = useHubMock();
const WALLET = "0x2222222222222222222222222222222222222222";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const caught = async (run: () => unknown): Promise<unknown> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
};

const KEY_MISSING = "give `secret` or `signingKey` (is the environment variable that holds it set?)";
const KEY_BOTH = "`secret` and `signingKey` are both given: give one of them (they may not be the same key)";
const SIGNING_KEY_FORMAT = "signingKey must be 64 lowercase hex characters (sha256 of the secret)";
const TIMESTAMP = "timestamp must be Unix seconds as a decimal string";
const PATH = "path must start with /";
const SIGN_INPUT = "signRequest takes { secret or signingKey, timestamp, method, path, body }";

describe("a server client's key options", () => {
  const base = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha" };
  const refusal = (options: object) => {
    try {
      new HubServerClient(options as never);
    } catch (error) {
      return error as HubValidationError;
    }
    throw new Error("expected a refusal");
  };

  it("no key at all: one issue at secret, naming both options", () => {
    const error = refusal(base);
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["secret"], code: "custom", message: KEY_MISSING }]);
    expect(error.message).toBe(`Invalid client options: secret: ${KEY_MISSING}`);
  });

  it("a malformed signingKey: its format or type, at signingKey, and nothing more", () => {
    expect(refusal({ ...base, signingKey: SIGNING_KEY.toUpperCase() }).issues).toEqual([{ path: ["signingKey"], code: "invalid_format", message: SIGNING_KEY_FORMAT }]);
    expect(refusal({ ...base, signingKey: 64 }).issues).toEqual([{ path: ["signingKey"], code: "invalid_type", message: SIGNING_KEY_FORMAT }]);
  });

  it("a blank or non-string secret, at secret", () => {
    expect(refusal({ ...base, secret: " " }).issues).toEqual([{ path: ["secret"], code: "too_small", message: "secret must not be empty" }]);
    expect(refusal({ ...base, secret: 7 }).issues).toEqual([{ path: ["secret"], code: "invalid_type", message: "secret must be a string" }]);
  });

  it("every key problem at once, in order: secret, signingKey, dangerouslyAllowBrowser, then the count", () => {
    const error = refusal({ ...base, secret: "", signingKey: "nope", dangerouslyAllowBrowser: "yes" });
    expect(error.issues).toEqual([
      { path: ["secret"], code: "too_small", message: "secret must not be empty" },
      { path: ["signingKey"], code: "invalid_format", message: SIGNING_KEY_FORMAT },
      { path: ["dangerouslyAllowBrowser"], code: "invalid_type", message: "dangerouslyAllowBrowser must be true or false" },
      { path: ["secret"], code: "custom", message: KEY_BOTH },
    ]);
  });

  it("the server-only options are known names: a typo of one is suggested, a valid one accepted", () => {
    expect(refusal({ ...base, secert: "s" }).issues).toEqual([
      { path: ["secert"], code: "unrecognized_keys", message: 'unknown option "secert" (did you mean "secret"?)' },
    ]);
    const client = new HubServerClient({ ...base, signingKey: SIGNING_KEY, dangerouslyAllowBrowser: false, duplicate: () => undefined, unwrap: "data" });
    expect(client.hub).toBe("alpha");
  });
});

describe("signRequest's input issues, exactly", () => {
  const valid = { signingKey: SIGNING_KEY, timestamp: "1700000000", method: "post", path: "/api/v1/hub/alpha/bits/earn", body: '{"a":1}' };
  const issuesOf = async (input: unknown) => ((await caught(() => signRequest(input as never))) as HubValidationError).issues;

  it("a valid input signs the payload with the key, as node:crypto does", async () => {
    const expected = createHmac("sha256", SIGNING_KEY).update('1700000000.POST./api/v1/hub/alpha/bits/earn.{"a":1}', "utf8").digest("hex");
    expect(await signRequest(valid)).toBe(expected);
    expect(await signRequest({ ...valid, signingKey: undefined, secret: "demo-secret-alpha" } as never)).toBe(expected);
  });

  it.each([
    ["an array", []],
    ["a string", "1700000000.POST./x."],
    ["null", null],
  ])("%s is not an input: one issue naming what it takes", async (_name, input) => {
    const error = (await caught(() => signRequest(input as never))) as HubValidationError;
    expect(error.issues).toEqual([{ path: [], code: "invalid_type", message: SIGN_INPUT }]);
    expect(error.message).toBe(`Invalid signing input: ${SIGN_INPUT}`);
  });

  it("each field's own issue, with zod's code and the one message", async () => {
    expect(await issuesOf({ ...valid, timestamp: "17e8" })).toEqual([{ path: ["timestamp"], code: "invalid_format", message: TIMESTAMP }]);
    expect(await issuesOf({ ...valid, timestamp: 1700000000 })).toEqual([{ path: ["timestamp"], code: "invalid_type", message: TIMESTAMP }]);
    expect(await issuesOf({ ...valid, path: "api/v1" })).toEqual([{ path: ["path"], code: "invalid_format", message: PATH }]);
    expect(await issuesOf({ ...valid, path: undefined })).toEqual([{ path: ["path"], code: "invalid_type", message: PATH }]);
    expect(await issuesOf({ ...valid, method: 1 })).toEqual([{ path: ["method"], code: "invalid_type", message: "method must be a string" }]);
    expect(await issuesOf({ ...valid, body: null })).toEqual([{ path: ["body"], code: "invalid_type", message: "body must be the exact string sent" }]);
    expect(await issuesOf({ ...valid, signingKey: "0".repeat(65) })).toEqual([{ path: ["signingKey"], code: "invalid_format", message: SIGNING_KEY_FORMAT }]);
    expect(await issuesOf({ ...valid, signingKey: undefined, secret: "" })).toEqual([{ path: ["secret"], code: "too_small", message: "secret must not be empty" }]);
  });

  it("the key count comes last: missing, or both given", async () => {
    expect(await issuesOf({ ...valid, signingKey: undefined, path: "x" })).toEqual([
      { path: ["path"], code: "invalid_format", message: PATH },
      { path: ["secret"], code: "custom", message: KEY_MISSING },
    ]);
    expect(await issuesOf({ ...valid, secret: "s" })).toEqual([{ path: ["secret"], code: "custom", message: KEY_BOTH }]);
  });
});

describe("hashes and paths", () => {
  it("a hash with bytes under 0x10 keeps their leading zero", async () => {
    // sha256("abc"): bytes 0x01, 0x03, 0x00 inside.
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await deriveSigningKey("demo-secret-alpha")).toBe(SIGNING_KEY);
  });

  it("awardPath: the award's path under a base, percent-encoded", () => {
    expect(awardPath({ baseUrl: "https://hub.example.com", hub: "alpha" })).toBe("/api/v1/hub/alpha/bits/earn");
    expect(awardPath({ baseUrl: "https://hub.example.com/proxy/api/v1/", hub: "a b" })).toBe("/proxy/api/v1/hub/a%20b/bits/earn");
  });

  it("signingPayload joins the parts with dots, the method upper-cased", () => {
    expect(signingPayload({ timestamp: "1", method: "post", path: "/p", body: "{}" })).toBe("1.POST./p.{}");
  });
});

describe("an award's shape messages", () => {
  const issuesOf = (input: unknown) => ((() => {
    try {
      parseAward(input);
    } catch (error) {
      return error as HubValidationError;
    }
    throw new Error("expected a refusal");
  })());

  it("amount beside kind says to give one of them; another unknown field does not", () => {
    expect(issuesOf({ wallet: WALLET, kind: "daily", amount: 1, ref: "r" }).issues).toEqual([
      { path: ["amount"], code: "unrecognized_keys", message: 'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)' },
    ]);
    expect(issuesOf({ wallet: WALLET, amount: 1, ref: "r", reson: "x" }).issues).toEqual([
      { path: ["reson"], code: "unrecognized_keys", message: 'unknown field "reson": this award takes wallet, amount, reason, ref' },
    ]);
  });

  it.each([["a string", "award"], ["an array", [{ wallet: WALLET, amount: 1, ref: "r" }]], ["null", null]])("%s is refused as an award, not an object", (_name, input) => {
    const error = issuesOf(input);
    expect(error.issues).toEqual([{ path: [], code: "invalid_type", message: "an award must be an object" }]);
    expect(error.message).toBe("Invalid award: an award must be an object");
  });

  it("a getter throwing null: the award could not be read, with null named", () => {
    const award = { wallet: WALLET, amount: 1, get ref(): string {
      throw null;
    } };
    const error = issuesOf(award);
    expect(error.issues).toEqual([{ path: [], code: "custom", message: "the award could not be read: null" }]);
    expect(error.message).toBe("Invalid award: the award could not be read: null");
  });
});

describe("what an award gives back", () => {
  const award = (ref: string) => ({ wallet: WALLET, amount: 5, ref });

  it("with unwrap, withResponse() carries the whole body as envelope; without it, no envelope key", async () => {
    const withEnvelope = await serverClient(mock.baseUrl, { unwrap: "data" }).awardPoints(award("e-1")).withResponse();
    expect(withEnvelope.envelope).toEqual(withEnvelope.data);
    expect(withEnvelope.envelope).toMatchObject({ duplicate: false });
    const plain = await serverClient(mock.baseUrl).awardPoints(award("e-2")).withResponse();
    expect(Object.keys(plain).sort()).toEqual(["attempts", "data", "duplicate", "mayHaveBeenAppliedEarlier", "requestId", "response"]);
  });

  it("a duplicate reader that throws null: the SDK's rule decides, and the warning names null", async () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} };
    const duplicate = () => {
      throw null;
    };
    const result = await serverClient(mock.baseUrl, { duplicate, logger, logLevel: "warn" }).awardPoints(award("e-3")).withResponse();
    expect(result.duplicate).toBe(false);
    expect(lines).toEqual(["[public-hub] observer-failed option=duplicate error=null"]);
  });

  it("a null thrown while reading the answer (a schema's validate) reaches the caller as null", async () => {
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => {
      throw null;
    } } };
    const error = await serverClient(mock.baseUrl).awardPoints(award("e-4"), { schema: schema as never }).then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(error).toBeNull();
  });

  it("an Error of the caller's own, even one with a refusal's status, reaches the caller untouched: no signing diagnostics", async () => {
    const own = Object.assign(new Error("the schema broke"), { status: 401 });
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => {
      throw own;
    } } };
    const error = await serverClient(mock.baseUrl).awardPoints(award("e-9"), { schema: schema as never }).then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(error).toBe(own);
    expect(Object.keys(own).sort()).toEqual(["status"]);
    expect(own.message).toBe("the schema broke");
  });

  it("an answer that does not fit the schema: the error has no attempts, and says the award may have been applied", async () => {
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => ({ issues: [{ message: "nope", path: ["x"] }] }) } };
    const error = (await caught(() => serverClient(mock.baseUrl).awardPoints(award("e-5"), { schema: schema as never }))) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(error.attempts).toBeUndefined();
    expect(Object.hasOwn(error, "attempts")).toBe(false);
    expect(Object.hasOwn(error, "signing")).toBe(false);
    expect(error.message.endsWith("; the award WAS applied: do not treat it as failed It may have been applied: retrying with the same ref is safe.")).toBe(true);
  });

  it("re-sent for the clock, then an answer that does not fit: still no attempts on the error", async () => {
    mock.setClockOffset(3_600_000);
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => ({ issues: [{ message: "nope" }] }) } };
    const error = (await caught(() => serverClient(mock.baseUrl).awardPoints(award("e-6"), { schema: schema as never }))) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(mock.requests).toHaveLength(2);
    expect(Object.hasOwn(error, "attempts")).toBe(false);
  });

  it("re-sent for the clock, then 503s to the end: the attempts add up, no signing diagnostics, and the message says it may have been applied", async () => {
    mock.setClockOffset(3_600_000);
    let calls = 0;
    const fetch: typeof globalThis.fetch = (input, init) => (++calls === 1 ? globalThis.fetch(input, init) : Promise.resolve(new Response("down", { status: 503 })));
    const error = (await caught(() => serverClient(mock.baseUrl, { fetch, retry: { limit: 2, backoff: 1 } }).awardPoints(award("e-7")))) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(calls).toBe(4);
    expect(error.attempts).toBe(4);
    expect(error.mayHaveBeenApplied).toBe(true);
    expect(Object.hasOwn(error, "signing")).toBe(false);
    expect(error.message.endsWith(". It may have been applied: retrying with the same ref is safe.")).toBe(true);
  });

  it("a refused signature's message: the body hash's first 12 characters and the offset in seconds", async () => {
    mock.setClockOffset(20_000);
    const client = serverClient(mock.baseUrl, { secret: "not-the-secret" });
    await client.getHub();
    const error = (await caught(() => client.awardPoints(award("e-8")))) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    const sent = mock.requests.at(-1)!;
    const offset = error.signing!.clockOffsetMs;
    expect(Math.abs(offset - 20_000)).toBeLessThan(1_500);
    expect(error.message).toContain(
      ` a proxy rewrote the path or the body (signed: POST /api/v1/hub/alpha/bits/earn, body sha256 ${sha256(sent.body).slice(0, 12)}…); the clock (timestamp ${sent.headers["x-api-timestamp"]}, offset to the server ${(offset / 1000).toFixed(1)} s). See error.signing.`,
    );
    expect(error.message).toMatch(/offset to the server (19|20|21)\.\d s\)/);
  });
});

describe("awardMany's own call", () => {
  it("is observed as awardMany, POST, on the award's template and path", async () => {
    const contexts: HubCallContext[] = [];
    const telemetry = { name: "test", startCall: (context: Readonly<HubCallContext>) => ({ run: <T>(call: () => Promise<T>) => call(), end: (done: Readonly<HubCallContext>) => void contexts.push({ ...done }) }) };
    await serverClient(mock.baseUrl, { telemetry }).awardMany([{ wallet: WALLET, amount: 1, ref: "m-1" }]);
    const campaign = contexts.find((context) => context.operation === "awardMany");
    expect(campaign).toMatchObject({ operation: "awardMany", method: "POST", urlTemplate: "/hub/{slug}/bits/earn", path: "/hub/alpha/bits/earn", hub: "alpha" });
    expect(contexts.map((context) => context.operation)).toEqual(["awardPoints", "awardMany"]);
  });
});

describe("the browser build", () => {
  it("refuses awardMany on its class, as its constructor does", () => {
    const proto = browser.HubServerClient.prototype;
    expect(() => proto.awardMany.call({}, "" as never)).toThrow(BrowserNotAllowedError);
    expect(() => proto.awardPoints.call({}, "" as never)).toThrow(BrowserNotAllowedError);
    expect(() => proto.awardMany.call({}, "" as never)).toThrow(/^public-hub-sdk\/server does not run in a browser: .* \(Your bundler resolved the "browser" build of public-hub-sdk\/server/);
  });
});
