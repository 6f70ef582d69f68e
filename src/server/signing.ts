import * as z from "zod/mini";
import { assertNotBrowser } from "./browser-guard";
import type { HmacBackend, PayloadSigner } from "./crypto/backend";
import { signingPayload } from "./signing-payload";
import { text, validate } from "./validate";

/**
 * Input of `signRequest`: either the secret or its derived signing key, and what is sent.
 * @example
 * ```ts
 * const input: SignRequestInput = { signingKey, timestamp: "1700000000", method: "POST", path: "/api/v1/hub/alpha/bits/earn", body: "{}" };
 * ```
 */
export type SignRequestInput = (
  | {
      /** The API secret. */
      secret: string;
      /** Give `secret` or `signingKey`, not both. */
      signingKey?: never;
    }
  | {
      /** The lowercase hex SHA-256 of the secret. */
      signingKey: string;
      /** Give `secret` or `signingKey`, not both. */
      secret?: never;
    }
) & {
  /** Unix seconds as the decimal string sent in `x-api-timestamp`. */
  timestamp: string;
  /** HTTP method; upper-cased before signing. */
  method: string;
  /** Path as sent, including `/api/v1` and percent-encoding, e.g. `/api/v1/hub/alpha/bits/earn`. */
  path: string;
  /** The exact body string sent. */
  body: string;
  /** Allow signing where `window`/`document` exist (DOM test environments only). @default false */
  dangerouslyAllowBrowser?: boolean;
};

const SIGNING_KEY = "signingKey must be 64 lowercase hex characters (sha256 of the secret)";
const TIMESTAMP = "timestamp must be Unix seconds as a decimal string";
const PATH = "path must start with /";

// No message ever holds a value: these fields are key material or sit beside it.
const keyFields = {
  secret: z.optional(text("secret")),
  signingKey: z.optional(z.string({ error: SIGNING_KEY }).check(z.regex(/^[0-9a-f]{64}$/, { error: SIGNING_KEY }))),
};

/**
 * `secret` or `signingKey` is given. It runs even when another field has an issue (`when`), so
 * every problem is named at once; if both are given, `signingKey` is used.
 */
const keyGiven = z.refine<{ secret?: unknown; signingKey?: unknown }>((input) => input.secret !== undefined || input.signingKey !== undefined, {
  path: ["secret"],
  error: "give `secret` or `signingKey` (is the environment variable that holds it set?)",
  when: (payload) => typeof payload.value === "object" && payload.value !== null,
});

/** The key material of a server client's options (the other options are `HubClient`'s). */
export const keyOptionsSchema = z.object({ ...keyFields, dangerouslyAllowBrowser: z.optional(z.boolean({ error: "dangerouslyAllowBrowser must be true or false" })) }).check(keyGiven);

const signInputSchema = z
  .object(
    {
      ...keyFields,
      timestamp: z.string({ error: TIMESTAMP }).check(z.regex(/^\d+$/, { error: TIMESTAMP })),
      method: text("method"),
      path: z.string({ error: PATH }).check(z.startsWith("/", { error: PATH })),
      body: z.string({ error: "body must be the exact string sent" }),
    },
    { error: "signRequest takes { secret or signingKey, timestamp, method, path, body }" },
  )
  .check(keyGiven);

const secretSchema = z.object({ secret: text("secret") });

const SIGNER_CACHE_SIZE = 16;

/** `deriveSigningKey` and `signRequest` for one crypto backend. */
export function createSigning(backend: HmacBackend) {
  // Prepared signers (a KeyObject or CryptoKey inside) by signing key, so that signing with a
  // known key costs one HMAC. Only derived keys are cached, never secrets; never a failure.
  const signers = new Map<string, Promise<PayloadSigner>>();
  const signerFor = (key: string) => {
    let signer = signers.get(key);
    if (signer === undefined) {
      if (signers.size >= SIGNER_CACHE_SIZE) signers.delete(signers.keys().next().value!);
      signer = Promise.resolve(backend.signerFor(key));
      signers.set(key, signer);
      signer.catch(() => signers.delete(key));
    }
    return signer;
  };

  async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
    assertNotBrowser(options.dangerouslyAllowBrowser);
    validate(secretSchema, { secret }, "secret");
    return backend.sha256Hex(secret);
  }

  async function signRequest(input: SignRequestInput): Promise<string> {
    assertNotBrowser(input?.dangerouslyAllowBrowser);
    validate(signInputSchema, input, "signing input");
    const sign = await signerFor(input.signingKey ?? (await backend.sha256Hex(input.secret)));
    return sign(signingPayload(input));
  }

  return { deriveSigningKey, signRequest };
}
