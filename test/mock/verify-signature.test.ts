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
