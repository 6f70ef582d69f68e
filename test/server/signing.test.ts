import { describe, expect, it } from "vitest";
import { createHash, createHmac } from "node:crypto";
import { HubValidationError } from "public-hub-sdk";
import * as signing from "../../src/server/signing";
import { HubServerClient } from "../../src/server/index";
import { vectors } from "../helpers/vectors";


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
