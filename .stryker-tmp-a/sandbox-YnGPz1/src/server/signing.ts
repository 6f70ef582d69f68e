// @ts-nocheck
import { textProblem, type Problem } from "../client/check-input";
import { HubValidationError, type ValidationIssue } from "../core/errors";
import { assertNotBrowser } from "./browser-guard";
import type { HmacBackend, PayloadSigner } from "./crypto/backend";
import { signingPayload } from "./signing-payload";

/**
 * The key to sign with: the secret, or its derived signing key (see `deriveSigningKey`), never both.
 * @example
 * ```ts
 * const key: KeyMaterial = process.env.HUB_SECRET ? { secret: process.env.HUB_SECRET } : { signingKey: process.env.HUB_SIGNING_KEY! };
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", ...key });
 * ```
 */
export type KeyMaterial =
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
    };

/**
 * Input of `signRequest`: either the secret or its derived signing key, and what is sent.
 * @example
 * ```ts
 * const input: SignRequestInput = { signingKey, timestamp: "1700000000", method: "POST", path: "/api/v1/hub/alpha/bits/earn", body: "{}" };
 * ```
 */
export type SignRequestInput = KeyMaterial & {
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
const SIGN_INPUT = "signRequest takes { secret or signingKey, timestamp, method, path, body }";
const KEY_MISSING = "give `secret` or `signingKey` (is the environment variable that holds it set?)";

/*
 * Plain predicates, not zod: signRequest may run for every attempt of every award, and a zod parse
 * per call cost a third of a signature (bench/RESULTS.md). The issues keep zod's codes, so an
 * error reads the same as one from the award schema. No message ever holds a value: these fields
 * are key material or sit beside it.
 */
type Issues = ValidationIssue[];
/** `issues` with `problem` added at `field`, when there is one (a new array only then). */
const add = (issues: Issues | undefined, field: string, problem: Problem | undefined): Issues | undefined => (problem ? [...(issues ?? []), { path: [field], ...problem }] : issues);
/** A string that `valid` accepts, else the one `message`, with zod's code for a wrong type or format. */
const formatProblem = (value: unknown, valid: (text: string) => boolean, message: string): Problem | undefined =>
  typeof value !== "string" ? { code: "invalid_type", message } : valid(value) ? undefined : { code: "invalid_format", message };
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isSigningKey = (text: string) => /^[0-9a-f]{64}$/.test(text);
const isUnixSeconds = (text: string) => /^\d+$/.test(text);
const startsWithSlash = (text: string) => text.startsWith("/");

/**
 * `secret` and `signingKey` as given: each optional, but one is needed (with both, `signingKey` is
 * used). `missingKey` comes last, so that every problem is named at once.
 */
const keyIssues = (input: Record<string, unknown>, known?: (key: unknown) => boolean) =>
  add(
    add(undefined, "secret", input.secret === undefined ? undefined : textProblem("secret", input.secret)),
    "signingKey",
    input.signingKey === undefined || known?.(input.signingKey) ? undefined : formatProblem(input.signingKey, isSigningKey, SIGNING_KEY),
  );
const missingKey = (input: Record<string, unknown>, issues: Issues | undefined) =>
  add(issues, "secret", input.secret === undefined && input.signingKey === undefined ? { code: "custom", message: KEY_MISSING } : undefined);

/** Throws {@link HubValidationError} unless a server client's key options are usable (called after HubClient's own checks, which refuse a non-object). */
export function checkKeyOptions(options: object): void {
  const allow = (options as Record<string, unknown>).dangerouslyAllowBrowser;
  const issues = missingKey(options as Record<string, unknown>, add(keyIssues(options as Record<string, unknown>), "dangerouslyAllowBrowser", allow === undefined || typeof allow === "boolean" ? undefined : { code: "invalid_type", message: "dangerouslyAllowBrowser must be true or false" }));
  if (issues) throw new HubValidationError({ what: "client options", issues });
}

/** Throws {@link HubValidationError} unless `input` is a complete {@link SignRequestInput}. Straight-line: it runs on every signature. */
function checkSignInput(input: unknown, known: (key: unknown) => boolean): asserts input is SignRequestInput {
  if (!isObject(input)) throw new HubValidationError({ what: "signing input", issues: [{ path: [], code: "invalid_type", message: SIGN_INPUT }] });
  let issues = add(keyIssues(input, known), "timestamp", formatProblem(input.timestamp, isUnixSeconds, TIMESTAMP));
  issues = add(add(issues, "method", textProblem("method", input.method)), "path", formatProblem(input.path, startsWithSlash, PATH));
  issues = missingKey(input, add(issues, "body", typeof input.body === "string" ? undefined : { code: "invalid_type", message: "body must be the exact string sent" }));
  if (issues) throw new HubValidationError({ what: "signing input", issues });
}

const SIGNER_CACHE_SIZE = 16;

/** `deriveSigningKey` and `signRequest` for one crypto backend. */
export function createSigning(backend: HmacBackend) {
  // Prepared signers (a KeyObject or CryptoKey inside) by signing key, so that signing with a
  // known key costs one HMAC: the signer itself once ready (no await), its promise until then.
  // Only derived keys are cached, never secrets; never a failure. Two fast paths, measured on an
  // idle machine (callgrind, instructions per signature, 2026-11-26; noise ±2 %): the format check
  // skipped for a prepared key saves ~1,500 of ~32,500, the ready signer called without an await
  // ~1,200, and in calls/s without it `signRequest` fell from 0.81× to 0.70× raw `createHmac`
  // (bench/RESULTS.md). Both change the cost only, never the result: mutation testing cannot see them.
  const signers = new Map<string, PayloadSigner | Promise<PayloadSigner>>();
  // A signing key already prepared passed its format check when it was first given.
  // Stryker disable next-line ArrowFunction: the fast path above (the check then runs every time)
  const known = (key: unknown) => signers.has(key as string);
  const signerFor = (key: string) => {
    let signer = signers.get(key);
    if (signer === undefined) {
      if (signers.size >= SIGNER_CACHE_SIZE) signers.delete(signers.keys().next().value!);
      const pending = Promise.resolve(backend.signerFor(key));
      signers.set(key, (signer = pending));
      pending.then(
        // Stryker disable next-line all: the fast path above (the promise is awaited instead)
        (ready) => signers.get(key) === pending && signers.set(key, ready),
        () => signers.delete(key), // a failure is not kept: the next call tries again
      );
    }
    return signer;
  };

  async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
    assertNotBrowser(options.dangerouslyAllowBrowser);
    const issues = add(undefined, "secret", textProblem("secret", secret));
    if (issues) throw new HubValidationError({ what: "secret", issues });
    return backend.sha256Hex(secret);
  }

  async function signRequest(input: SignRequestInput): Promise<string> {
    assertNotBrowser(input?.dangerouslyAllowBrowser);
    checkSignInput(input, known);
    const signer = signerFor(input.signingKey ?? (await backend.sha256Hex(input.secret)));
    // Stryker disable next-line ConditionalExpression,StringLiteral: the fast path above (awaiting the ready signer gives it too)
    const sign = typeof signer === "function" ? signer : await signer;
    return sign(signingPayload(input));
  }

  return { deriveSigningKey, signRequest };
}
