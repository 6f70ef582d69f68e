// @ts-nocheck
import { createHash, createHmac } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

// Every byte value, so that each entry of the hex table is checked.
const allBytes = String.fromCharCode(...Array.from({ length: 128 }, (_, i) => i));

describe.each([
  ["with Buffer (Node, Bun, nodejs_compat)", false],
  ["without Buffer (plain edge runtimes)", true],
])("the WebCrypto backend %s", (_name, withoutBuffer) => {
  const load = async () => {
    if (withoutBuffer) vi.stubGlobal("Buffer", undefined);
    vi.resetModules();
    return (await import("../../../src/server/crypto/web-backend")).webBackend;
  };

  it("hashes to lowercase hex like node:crypto", async () => {
    const backend = await load();
    for (const text of ["", "abc", allBytes, "café ☕"]) {
      expect(await backend.sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    }
  });

  it("signs like node:crypto, with a key prepared once", async () => {
    const backend = await load();
    const sign = await backend.signerFor("k3y");
    for (const payload of ["1.POST./x.{}", allBytes]) {
      expect(await sign(payload)).toBe(createHmac("sha256", "k3y").update(payload, "utf8").digest("hex"));
    }
  });
});
