import { describe, expect, it } from "vitest";
import { createHash, createHmac } from "node:crypto";
import { HubValidationError } from "public-hub-sdk";
import * as signing from "../../src/server/signing";
import { awardPath, deriveSigningKey, signingPayload, signRequest } from "public-hub-sdk/server";
import { sha256Hex } from "../../src/server/signing";
import { HubServerClient } from "../../src/server/index";
import { caught } from "../helpers/caught";
import { SIGNING_KEY } from "../helpers/server-client";
import { vectors } from "../helpers/vectors";

const KEY_MISSING = "give `secret` or `signingKey` (is the environment variable that holds it set?)";
const KEY_BOTH = "`secret` and `signingKey` are both given: give one of them (they may not be the same key)";
const SIGNING_KEY_FORMAT = "signingKey must be 64 lowercase hex characters (sha256 of the secret)";
const TIMESTAMP = "timestamp must be Unix seconds as a decimal string";
const PATH = "path must start with /";
const SIGN_INPUT = "signRequest takes { secret or signingKey, timestamp, method, path, body }";

describe("the WebCrypto signer", () => {
  it.each(vectors.map((v, i) => [i, v] as const))("signs vector %i from the secret", async (_i, vector) => {
    const { signature, ...input } = vector;
    expect(await signing.signRequest(input)).toBe(signature);
  });

  it.each(vectors.map((v, i) => [i, v] as const))("signs vector %i from the derived key", async (_i, vector) => {
    const { signature, secret, ...input } = vector;
    const signingKey = await signing.deriveSigningKey(secret);
    expect(signingKey).toMatch(/^[0-9a-f]{64}$/);
    expect(await signing.signRequest({ ...input, signingKey })).toBe(signature);
  });

  it("derives the lowercase hex sha256 of the UTF-8 secret", async () => {
    // sha256("abc"), a FIPS 180-2 test vector.
    expect(await signing.deriveSigningKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it.each([
    ["no secret or key", { timestamp: "1", method: "POST", path: "/x", body: "" }],
    ["an empty secret", { secret: "", timestamp: "1", method: "POST", path: "/x", body: "" }],
    ["an upper-case signing key", { signingKey: "A".repeat(64), timestamp: "1", method: "POST", path: "/x", body: "" }],
    ["a non-numeric timestamp", { secret: "s", timestamp: "soon", method: "POST", path: "/x", body: "" }],
    ["a relative path", { secret: "s", timestamp: "1", method: "POST", path: "x", body: "" }],
    ["a body object", { secret: "s", timestamp: "1", method: "POST", path: "/x", body: {} }],
  ])("refuses %s", async (_name, input) => {
    await expect(signing.signRequest(input as never)).rejects.toBeInstanceOf(HubValidationError);
  });

  it("checks every call's input, also with a signing key used before", async () => {
    const signingKey = await signing.deriveSigningKey("used-before");
    const valid = { signingKey, timestamp: "1", method: "POST", path: "/x", body: "" };
    await expect(signing.signRequest(valid)).resolves.toMatch(/^[0-9a-f]{64}$/);
    for (const broken of [{ timestamp: "1.5" }, { timestamp: 1700000000 }, { method: " " }, { method: 7 }, { path: "x" }, { path: ["/x"] }, { body: 1 }, { body: null }]) {
      await expect(signing.signRequest({ ...valid, ...broken } as never)).rejects.toBeInstanceOf(HubValidationError);
    }
  });

  it("never echoes the secret in a validation error", async () => {
    const error = (await signing.signRequest({ secret: "TOP-SECRET-VALUE", timestamp: "nope", method: "POST", path: "/x", body: "" }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(HubValidationError);
    expect(JSON.stringify(error) + String(error) + error.message).not.toContain("TOP-SECRET-VALUE");
  });
});

describe("the signing input checks", () => {
  const key = "a".repeat(64);
  const base = { timestamp: "1", method: "POST", path: "/x", body: "" };

  it.each([
    ["a character before the key", `x${key}`, "invalid_format"],
    ["a character after the key", `${key}x`, "invalid_format"],
    ["63 characters", key.slice(1), "invalid_format"],
    ["upper-case hex", key.toUpperCase(), "invalid_format"],
    ["a non-string key", 42, "invalid_type"],
    ["a key in an array", ["a".repeat(64)], "invalid_type"],
  ])("refuses a signing key with %s", async (_name, signingKey, code) => {
    const error = await signing.signRequest({ ...base, signingKey } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([
      { path: ["signingKey"], code, message: "signingKey must be 64 lowercase hex characters (sha256 of the secret)" },
    ]);
  });

  it.each([
    ["a timestamp with letters around digits", { timestamp: "x1700000000x" }, "timestamp", "invalid_format"],
    ["a numeric timestamp", { timestamp: 1700000000 }, "timestamp", "invalid_type"],
    ["a blank method", { method: "  " }, "method", "too_small"],
    ["a numeric method", { method: 1 }, "method", "invalid_type"],
    ["a path object", { path: { startsWith: () => true } }, "path", "invalid_type"],
    ["a path without its leading /", { path: "x/" }, "path", "invalid_format"],
    ["a body object", { body: {} }, "body", "invalid_type"],
  ])("names %s exactly", async (_name, broken, field, code) => {
    const error = await signing.signRequest({ secret: "s", ...base, ...broken } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path: [field], code })]);
  });

  it("names every problem at once", async () => {
    const error = (await signing.signRequest({ secret: "", timestamp: "t", method: "", path: "x", body: 1 } as never).catch((e: unknown) => e)) as HubValidationError;
    expect(error.issues).toEqual([
      { path: ["secret"], code: "too_small", message: "secret must not be empty" },
      { path: ["timestamp"], code: "invalid_format", message: "timestamp must be Unix seconds as a decimal string" },
      { path: ["method"], code: "too_small", message: "method must not be empty" },
      { path: ["path"], code: "invalid_format", message: "path must start with /" },
      { path: ["body"], code: "invalid_type", message: "body must be the exact string sent" },
    ]);
    expect(error.message).toMatch(/^Invalid signing input: secret: secret must not be empty/);
  });

  it("signRequest(undefined) and (null) are validation errors naming what it takes, not TypeErrors", async () => {
    for (const input of [undefined, null]) {
      const error = await signing.signRequest(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubValidationError);
      expect((error as HubValidationError).issues).toEqual([
        { path: [], code: "invalid_type", message: "signRequest takes { secret or signingKey, timestamp, method, path, body }" },
      ]);
      expect((error as HubValidationError).message).toMatch(/^Invalid signing input/);
    }
  });

  it("a missing key is named together with the other problems", async () => {
    const error = (await signing.signRequest({ ...base, timestamp: "soon" } as never).catch((e: unknown) => e)) as HubValidationError;
    expect(error.issues.map((issue) => issue.path[0])).toEqual(["timestamp", "secret"]);
    expect(error.issues[1]).toEqual({ path: ["secret"], code: "custom", message: "give `secret` or `signingKey` (is the environment variable that holds it set?)" });
  });

  it("both secret and signingKey are refused, naming both, and nothing is signed", async () => {
    const signingKey = await signing.deriveSigningKey("the-real-one");
    const error = (await signing.signRequest({ ...base, signingKey, secret: "another" } as never).catch((e: unknown) => e)) as HubValidationError;
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["secret"], code: "custom", message: "`secret` and `signingKey` are both given: give one of them (they may not be the same key)" }]);
    expect(error.message).not.toContain("another");
  });

  it("a server client given both secret and signingKey is refused at construction, naming both", () => {
    const options = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", secret: "another", signingKey: "a".repeat(64) };
    expect(() => new HubServerClient(options as never)).toThrow(
      new HubValidationError({ what: "client options", issues: [{ path: ["secret"], code: "custom", message: "`secret` and `signingKey` are both given: give one of them (they may not be the same key)" }] }),
    );
    // Either one alone is fine; an explicit undefined counts as not given.
    expect(new HubServerClient({ ...options, secret: undefined } as never).hub).toBe("alpha");
    expect(new HubServerClient({ ...options, signingKey: undefined } as never).hub).toBe("alpha");
  });

  it("deriveSigningKey refuses an empty or missing secret", async () => {
    await expect(signing.deriveSigningKey("")).rejects.toThrow("Invalid secret: secret: secret must not be empty");
    await expect(signing.deriveSigningKey(undefined as never)).rejects.toMatchObject({ issues: [{ path: ["secret"], code: "invalid_type" }] });
  });

});

describe("the WebCrypto primitives", () => {
  // Every byte value, so that each entry of the hex table is checked.
  const allBytes = String.fromCharCode(...Array.from({ length: 256 }, (_, i) => i));

  it("hash to lowercase hex like node:crypto", async () => {
    for (const text of ["", "abc", allBytes, "café ☕"]) {
      expect(await signing.sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    }
  });

  it("sign like node:crypto, with the key imported once for many payloads", async () => {
    const sign = await signing.hmacSigner("k3y");
    for (const payload of ["1.POST./x.{}", allBytes, "café ☕"]) {
      expect(await sign(payload)).toBe(createHmac("sha256", "k3y").update(payload, "utf8").digest("hex"));
    }
  });
});

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
      { path: ["secert"], code: "unrecognized_keys", message: 'unknown option "secert"' },
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
