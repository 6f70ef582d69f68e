import type { ValidationIssue } from "../core/errors/hub-validation-error";
import { assertNoIssues, isNonEmpty, satisfies, type Check } from "../core/checks";
import { assertNotBrowser } from "./browser-guard";
import type { HmacBackend, PayloadSigner } from "./crypto/backend";
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

// Plain checks, not zod: signRequest is on the hot path (see bench/RESULTS.md), and every input
// is a single string. No check ever puts the value in its message: it may be key material.
const SIGNING_KEY = /^[0-9a-f]{64}$/;
const DIGITS = /^\d+$/;
const isSigningKey = satisfies((v) => typeof v === "string" && SIGNING_KEY.test(v), "signingKey must be 64 lowercase hex characters (sha256 of the secret)");
const isSecret = isNonEmpty("secret");
const SIGN_CHECKS: ReadonlyArray<[keyof SignRequestInput, Check]> = [
  ["timestamp", satisfies((v) => typeof v === "string" && DIGITS.test(v), "timestamp must be Unix seconds as a decimal string")],
  ["method", isNonEmpty("method")],
  ["path", satisfies((v) => typeof v === "string" && v.startsWith("/"), "path must start with /")],
  ["body", satisfies((v) => typeof v === "string", "body must be the exact string sent", "invalid_type")],
];

/**
 * The same rules as SIGN_CHECKS in one expression, for the hot path. A mutant that makes it
 * stricter only sends a valid input through the full checks (slower, same result): those are
 * marked; every looser one must be caught by the tests.
 */
const looksValid = (input: SignRequestInput) =>
  // Stryker disable next-line StringLiteral,ConditionalExpression: stricter only
  typeof input.timestamp === "string" &&
  DIGITS.test(input.timestamp) &&
  // Stryker disable next-line StringLiteral: stricter only
  typeof input.method === "string" &&
  input.method.trim() !== "" &&
  // Stryker disable next-line StringLiteral: stricter only
  typeof input.path === "string" &&
  input.path.startsWith("/") &&
  // Stryker disable next-line StringLiteral: stricter only
  typeof input.body === "string";

const MISSING_KEY: ValidationIssue = {
  path: ["secret"],
  code: "invalid_type",
  message: "give `secret` or `signingKey` (is the environment variable that holds it set?)",
};

function keyIssues(input: { secret?: unknown; signingKey?: unknown }): ValidationIssue[] {
  if (input.secret === undefined && input.signingKey === undefined) return [MISSING_KEY];
  const [field, check] = input.signingKey !== undefined ? (["signingKey", isSigningKey] as const) : (["secret", isSecret] as const);
  const found = check(input[field]);
  return found ? [{ path: [field], ...found }] : [];
}

/** Checks a secret or signing key without ever echoing it. */
export function checkKeyMaterial(input: { secret?: unknown; signingKey?: unknown }, what: string): void {
  assertNoIssues(what, keyIssues(input));
}

const SIGNER_CACHE_SIZE = 16;

/** `deriveSigningKey` and `signRequest` for one crypto backend. */
export function createSigning(backend: HmacBackend) {
  // Prepared signers (a KeyObject or CryptoKey inside) by signing key, so that signing with a
  // known key costs one HMAC. Only derived keys are cached, never secrets.
  const signers = new Map<string, PayloadSigner | Promise<PayloadSigner>>();
  const signerFor = (key: string) => {
    let signer = signers.get(key);
    if (signer === undefined) {
      if (signers.size >= SIGNER_CACHE_SIZE) signers.delete(signers.keys().next().value!);
      signer = backend.signerFor(key);
      signers.set(key, signer);
      // Once prepared, keep the function itself (no await per call); never keep a failure.
      // Stryker disable next-line ArrowFunction: keeping the promise instead of the function only costs an await per call
      if (signer instanceof Promise) signer.then((ready) => signers.set(key, ready), () => signers.delete(key));
    }
    return signer;
  };

  async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
    assertNotBrowser(options.dangerouslyAllowBrowser);
    checkKeyMaterial({ secret }, "secret");
    return backend.sha256Hex(secret);
  }

  async function signRequest(input: SignRequestInput): Promise<string> {
    assertNotBrowser(input?.dangerouslyAllowBrowser);
    // Fast path: a key already in the cache was checked when it was added; the issue list is only
    // built when something is wrong.
    // Stryker disable next-line ConditionalExpression: no cache hit only means the full checks
    const cached = input?.signingKey !== undefined ? signers.get(input.signingKey) : undefined;
    // Stryker disable next-line ConditionalExpression: taking the full checks is only slower, same result
    if (!(cached !== undefined && looksValid(input))) {
      const issues = keyIssues(input ?? {});
      for (const [field, check] of SIGN_CHECKS) {
        const found = check(input?.[field]);
        if (found) issues.push({ path: [field], ...found });
      }
      assertNoIssues("signing input", issues);
    }
    const signer = cached ?? signerFor(input.signingKey ?? (await backend.sha256Hex(input.secret)));
    // Stryker disable next-line ConditionalExpression,StringLiteral: awaiting a function gives the function
    const sign = typeof signer === "function" ? signer : await signer;
    return sign(signingPayload(input));
  }

  return { deriveSigningKey, signRequest };
}
