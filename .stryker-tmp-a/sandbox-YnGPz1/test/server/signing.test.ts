// @ts-nocheck
import { describe, expect, it } from "vitest";
import * as edge from "../../src/server/edge";
import * as node from "../../src/server/node";
import { HubValidationError } from "public-hub-sdk";
import { vectors } from "../helpers/vectors";
import { createHash } from "node:crypto";
import { createSigning } from "../../src/server/signing";

const implementations = [
  ["node:crypto", node],
  ["WebCrypto", edge],
] as const;

describe.each(implementations)("%s signer", (_name, signing) => {
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

  it("checks every call's input, also with a signing key already prepared", async () => {
    const signingKey = await signing.deriveSigningKey("cache-me");
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
    const error = await node.signRequest({ ...base, signingKey } as never).catch((e: unknown) => e);
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
    const error = await node.signRequest({ secret: "s", ...base, ...broken } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path: [field], code })]);
  });

  it("names every problem at once", async () => {
    const error = (await node.signRequest({ secret: "", timestamp: "t", method: "", path: "x", body: 1 } as never).catch((e: unknown) => e)) as HubValidationError;
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
      const error = await node.signRequest(input as never).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HubValidationError);
      expect((error as HubValidationError).issues).toEqual([
        { path: [], code: "invalid_type", message: "signRequest takes { secret or signingKey, timestamp, method, path, body }" },
      ]);
      expect((error as HubValidationError).message).toMatch(/^Invalid signing input/);
    }
  });

  it("a missing key is named together with the other problems", async () => {
    const error = (await node.signRequest({ ...base, timestamp: "soon" } as never).catch((e: unknown) => e)) as HubValidationError;
    expect(error.issues.map((issue) => issue.path[0])).toEqual(["timestamp", "secret"]);
    expect(error.issues[1]).toEqual({ path: ["secret"], code: "custom", message: "give `secret` or `signingKey` (is the environment variable that holds it set?)" });
  });

  it("with both secret and signingKey, signs with signingKey", async () => {
    const signingKey = await node.deriveSigningKey("the-real-one");
    const expected = await node.signRequest({ ...base, signingKey });
    expect(await node.signRequest({ ...base, signingKey, secret: "another" } as never)).toBe(expected);
  });

  it("deriveSigningKey refuses an empty or missing secret", async () => {
    await expect(node.deriveSigningKey("")).rejects.toThrow("Invalid secret: secret: secret must not be empty");
    await expect(node.deriveSigningKey(undefined as never)).rejects.toMatchObject({ issues: [{ path: ["secret"], code: "invalid_type" }] });
  });

});

describe("the prepared-signer cache", () => {
  /** A backend that counts preparations; `failFirst` makes the first preparation of each key fail. */
  const countingBackend = (failFirst = false) => {
    const prepared: string[] = [];
    const backend = {
      sha256Hex: (text: string) => createHash("sha256").update(text).digest("hex"),
      signerFor: (key: string) => {
        prepared.push(key);
        if (failFirst && prepared.filter((k) => k === key).length === 1) return Promise.reject(new Error("key import failed"));
        return Promise.resolve((payload: string) => `${key.slice(0, 4)}:${payload}`);
      },
    };
    return { backend, prepared };
  };
  const keyOf = (i: number) => i.toString(16).padStart(64, "0");
  const input = (signingKey: string) => ({ signingKey, timestamp: "1", method: "post", path: "/x", body: "{}" });

  it("prepares a key once and signs the exact payload with it", async () => {
    const { backend, prepared } = countingBackend();
    const { signRequest } = createSigning(backend);
    expect(await signRequest(input(keyOf(1)))).toBe("0000:1.POST./x.{}");
    expect(await signRequest(input(keyOf(1)))).toBe("0000:1.POST./x.{}");
    expect(prepared).toEqual([keyOf(1)]);
  });

  it("keeps the 16 most recent keys: the 17th evicts the oldest, and only it", async () => {
    const { backend, prepared } = countingBackend();
    const { signRequest } = createSigning(backend);
    for (let i = 1; i <= 17; i++) await signRequest(input(keyOf(i)));
    expect(prepared).toHaveLength(17);
    await signRequest(input(keyOf(17)));
    await signRequest(input(keyOf(2)));
    expect(prepared).toHaveLength(17); // 2 and 17 are still there
    await signRequest(input(keyOf(1)));
    expect(prepared).toHaveLength(18); // 1 was evicted
    expect(prepared.at(-1)).toBe(keyOf(1));
  });

  it("a failed preparation is not kept: the next call prepares the key again and signs", async () => {
    const { backend, prepared } = countingBackend(true);
    const { signRequest } = createSigning(backend);
    await expect(signRequest(input(keyOf(3)))).rejects.toThrow("key import failed");
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await signRequest(input(keyOf(3)))).toBe("0000:1.POST./x.{}");
    expect(prepared).toEqual([keyOf(3), keyOf(3)]);
  });

  it("concurrent signatures with one secret prepare its key once", async () => {
    const { backend, prepared } = countingBackend();
    const slowHash = { ...backend, sha256Hex: async (text: string) => backend.sha256Hex(text) };
    const { signRequest } = createSigning(slowHash);
    const input = { secret: "together", timestamp: "1", method: "POST", path: "/x", body: "" };
    await Promise.all([signRequest(input), signRequest(input), signRequest(input)]);
    expect(prepared).toHaveLength(1);
  });

  it("from a secret, signs with the derived key and never caches the secret", async () => {
    const { backend, prepared } = countingBackend();
    const { signRequest, deriveSigningKey } = createSigning(backend);
    const derived = await deriveSigningKey("s3cret");
    expect(derived).toBe(createHash("sha256").update("s3cret").digest("hex"));
    await signRequest({ secret: "s3cret", timestamp: "1", method: "POST", path: "/x", body: "" });
    expect(prepared).toEqual([derived]);
  });
});
