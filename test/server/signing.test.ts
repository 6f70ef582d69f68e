import { describe, expect, it } from "vitest";
import * as edge from "../../src/server/edge";
import * as node from "../../src/server/node";
import { HubValidationError } from "public-hub-sdk";
import { vectors } from "../helpers/vectors";

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

  it("a cached signing key does not skip the input checks", async () => {
    const signingKey = await signing.deriveSigningKey("cache-me");
    const valid = { signingKey, timestamp: "1", method: "POST", path: "/x", body: "" };
    await expect(signing.signRequest(valid)).resolves.toMatch(/^[0-9a-f]{64}$/);
    for (const broken of [{ timestamp: "1.5" }, { method: " " }, { path: "x" }, { body: 1 }]) {
      await expect(signing.signRequest({ ...valid, ...broken } as never)).rejects.toBeInstanceOf(HubValidationError);
    }
  });

  it("never echoes the secret in a validation error", async () => {
    const error = (await signing.signRequest({ secret: "TOP-SECRET-VALUE", timestamp: "nope", method: "POST", path: "/x", body: "" }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(HubValidationError);
    expect(JSON.stringify(error) + String(error) + error.message).not.toContain("TOP-SECRET-VALUE");
  });
});
