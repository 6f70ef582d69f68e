// @ts-nocheck
import { describe, expect, it } from "vitest";
import { storedKeyOf, verifySignature } from "../../src/mock/verify-signature";
import { rawSign } from "../helpers/raw-sign";
import { vectors } from "../helpers/vectors";

describe("the mock's signature check", () => {
  it("has all shared vectors to check", () => {
    expect(vectors.length).toBeGreaterThanOrEqual(20);
  });

  it.each(vectors.map((v, i) => [i, v] as const))("accepts vector %i", async (_i, vector) => {
    const storedKey = await storedKeyOf(vector.secret);
    expect(await verifySignature({ storedKey, ...vector })).toBe(true);
  });

  it.each(vectors.map((v, i) => [i, v] as const))("refuses vector %i with one changed byte of body or signature", async (_i, vector) => {
    const storedKey = await storedKeyOf(vector.secret);
    const flipped = (vector.signature[0] === "a" ? "b" : "a") + vector.signature.slice(1);
    expect(await verifySignature({ storedKey, ...vector, signature: flipped })).toBe(false);
    expect(await verifySignature({ storedKey, ...vector, body: `${vector.body} ` })).toBe(false);
    expect(await verifySignature({ storedKey, ...vector, signature: vector.signature.toUpperCase() })).toBe(false);
  });

  it("agrees with the test signer", () => {
    for (const vector of vectors) {
      expect(rawSign(vector.secret, vector.timestamp, vector.method, vector.path, vector.body)).toBe(vector.signature);
    }
  });
});

describe("the mock's reading of a signature", () => {
  const vector = vectors[0]!;

  it.each([
    ["an odd number of hex digits", (s: string) => s.slice(1)],
    ["a character before it", (s: string) => `x${s}`],
    ["a character after it", (s: string) => `${s}x`],
    ["nothing", () => ""],
  ])("refuses %s", async (_name, change) => {
    const storedKey = await storedKeyOf(vector.secret);
    expect(await verifySignature({ storedKey, ...vector, signature: change(vector.signature) })).toBe(false);
  });

  it("signs the method in upper case, whatever the request said", async () => {
    const storedKey = await storedKeyOf(vector.secret);
    expect(await verifySignature({ storedKey, ...vector, method: vector.method.toLowerCase() })).toBe(true);
  });

  it("stores the lowercase hex sha256 of the secret", async () => {
    expect(await storedKeyOf("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await storedKeyOf("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
