// @ts-nocheck
import type { HmacBackend } from "./backend";

const encoder = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
// Native hex where a Buffer exists (Node, Bun, workers with nodejs_compat); a table elsewhere.
const NativeBuffer = (globalThis as { Buffer?: { from(data: ArrayBuffer): { toString(encoding: "hex"): string } } }).Buffer;
const toHex = (buffer: ArrayBuffer) => {
  // Stryker disable next-line ConditionalExpression: both ways give the same hex; the table's own test runs without Buffer
  if (NativeBuffer) return NativeBuffer.from(buffer).toString("hex");
  let hex = "";
  for (const byte of new Uint8Array(buffer)) hex += HEX[byte];
  return hex;
};

/** WebCrypto (`crypto.subtle`): available in edge workers, Deno, Bun, Node and browsers. */
export const webBackend: HmacBackend = {
  sha256Hex: async (text) => toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text))),
  signerFor: async (key) => {
    // The CryptoKey is imported once; every signature reuses it.
    // Stryker disable next-line BooleanLiteral: the key is never exported; that it cannot be is a precaution only
    const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return (payload) => crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(payload)).then(toHex);
  },
};
