/**
 * The fingerprint of an award: a 53-bit hash (cyrb53) of its canonical JSON (keys sorted, at every
 * depth), in base 36. Two awards with the same fields and values have the same fingerprint whatever
 * their key order. It only tells "same award or not" for one `ref`, so it need not be
 * cryptographic; it is synchronous and short, so 1M journal lines stay small.
 */
// @ts-nocheck

export function awardHash(award: object): string {
  const [h1, h2] = mix(canonicalJson(award));
  return (4294967296 * (2097151 & h2) + h1).toString(36);
}

/** A 63-bit hash of a ref as two 32-bit words; the low word is odd, so 0 can mark an empty slot. */
export function refHash(ref: string): [number, number] {
  const [h1, h2] = mix(ref);
  return [h2, (h1 | 1) >>> 0];
}

/** JSON with object keys sorted, so the text depends on the content only (as `JSON.stringify` would write it). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === "function") return canonicalJson(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  let out = "";
  for (const key of Object.keys(value).sort()) {
    const inner = (value as Record<string, unknown>)[key];
    if (inner === undefined || typeof inner === "function" || typeof inner === "symbol") continue;
    out += `${out === "" ? "" : ","}${JSON.stringify(key)}:${canonicalJson(inner)}`;
  }
  return `{${out}}`;
}

// cyrb53 by bryc (public domain): two 32-bit multiply-xorshift lanes, as unsigned words.
function mix(text: string): [number, number] {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1 >>> 0, h2 >>> 0];
}
