/**
 * Signs one payload with a key fixed in advance.
 * @example
 * ```ts
 * const sign: PayloadSigner = await backend.signerFor(signingKey);
 * const signature = await sign("1700000000.POST./api/v1/hub/alpha/bits/earn.{}");
 * ```
 */
// @ts-nocheck

export type PayloadSigner = (payload: string) => string | Promise<string>;

/**
 * The two hash operations signing needs, per runtime: `node:crypto` (Node, Bun, Deno) or
 * WebCrypto (edge workers and the rest). Chosen by the package's export conditions.
 * @example
 * ```ts
 * const backend: HmacBackend = { sha256Hex: (text) => myHash(text), signerFor: (key) => (payload) => myHmac(key, payload) };
 * ```
 */
export interface HmacBackend {
  /** Lowercase hex SHA-256 of the UTF-8 text. */
  sha256Hex(text: string): string | Promise<string>;
  /** A signer for HMAC-SHA256 keyed with the UTF-8 bytes of `key`, giving lowercase hex. */
  signerFor(key: string): PayloadSigner | Promise<PayloadSigner>;
}
