import * as z from "zod/mini";
import { validate } from "./zod-validate";
import type { HmacBackend } from "./crypto/backend";
import { assertNotBrowser } from "./browser-guard";
import { signingPayload } from "./signing-payload";

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

const signingKeySchema = z.string().check(z.regex(/^[0-9a-f]{64}$/, "signingKey must be 64 lowercase hex characters (sha256 of the secret)"));
const secretSchema = z.string("secret must be a string").check(z.minLength(1, "secret must not be empty"));

/** Checks a secret or signing key without ever echoing it (zod issues carry no input here). */
export function checkKeyMaterial(input: { secret?: unknown; signingKey?: unknown }, what: string): void {
  if (input.signingKey !== undefined) validate(signingKeySchema, input.signingKey, what, ["signingKey"]);
  else validate(secretSchema, input.secret, what, ["secret"]);
}

const signInputSchema = z.object({
  timestamp: z.string("timestamp must be a string").check(z.regex(/^\d+$/, "timestamp must be Unix seconds as a decimal string")),
  method: z.string().check(z.minLength(1, "method must not be empty")),
  path: z.string().check(z.refine((p) => p.startsWith("/"), "path must start with /")),
  body: z.string("body must be the exact string sent"),
});

/** `deriveSigningKey` and `signRequest` for one crypto backend. */
export function createSigning(backend: HmacBackend) {
  /**
   * The signing key: lowercase hex SHA-256 of the UTF-8 secret (what the server stores).
   * @example
   * ```ts
   * const signingKey = await deriveSigningKey(process.env.HUB_SECRET!);
   * ```
   */
  async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
    assertNotBrowser(options.dangerouslyAllowBrowser);
    checkKeyMaterial({ secret }, "secret");
    return backend.sha256Hex(secret);
  }

  /**
   * The `x-api-signature` of one request: lowercase hex HMAC-SHA256 of
   * `timestamp.METHOD.path.body`, keyed with the signing key. `HubServerClient` does this for you.
   * @example
   * ```ts
   * const signature = await signRequest({ signingKey, timestamp: "1700000000", method: "POST",
   *   path: "/api/v1/hub/alpha/bits/earn", body: '{"wallet":"0xabc","amount":10,"ref":"r1"}' });
   * ```
   */
  async function signRequest(input: SignRequestInput): Promise<string> {
    assertNotBrowser(input?.dangerouslyAllowBrowser);
    checkKeyMaterial(input, "signing input");
    validate(signInputSchema, input, "signing input");
    const key = input.signingKey ?? (await backend.sha256Hex(input.secret));
    const sign = await backend.signerFor(key);
    return sign(signingPayload(input));
  }

  return { deriveSigningKey, signRequest };
}
