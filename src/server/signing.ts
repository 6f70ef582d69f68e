import { HubValidationError, type ValidationIssue } from "../core/errors/hub-validation-error";
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
/** A field's check: its problem as zod's code and a message, or nothing. */
type Rule = (value: unknown) => [code: string, message: string] | undefined;
const text = (field: string): Rule => (value) =>
  typeof value !== "string" ? ["invalid_type", `${field} must be a string`] : value.trim() === "" ? ["too_small", `${field} must not be empty`] : undefined;
const format = (valid: (text: string) => boolean, message: string): Rule => (value) =>
  typeof value !== "string" ? ["invalid_type", message] : valid(value) ? undefined : ["invalid_format", message];
const secretRule = text("secret");

// Fields in the order their issues are reported. The key's two fields are each optional, but one
// is needed (with both, `signingKey` is used); that issue comes last, so every problem is named.
const KEY: Array<[string, Rule]> = [["secret", secretRule], ["signingKey", format((key) => /^[0-9a-f]{64}$/.test(key), SIGNING_KEY)]];
const OPTIONS: Array<[string, Rule]> = [["dangerouslyAllowBrowser", (value) => (typeof value === "boolean" ? undefined : ["invalid_type", "dangerouslyAllowBrowser must be true or false"])]];
const SIGN_INPUT_FIELDS: Array<[string, Rule]> = [
  ["timestamp", format((timestamp) => /^\d+$/.test(timestamp), TIMESTAMP)],
  ["method", text("method")],
  ["path", format((path) => path.startsWith("/"), PATH)],
  ["body", (value) => (typeof value === "string" ? undefined : ["invalid_type", "body must be the exact string sent"])],
];

/** The issues of `input`'s `rules` (`skipMissing`: a field not given is fine), added to `issues`. */
function issuesOf(input: Record<string, unknown>, rules: Array<[string, Rule]>, skipMissing: boolean, issues: ValidationIssue[] | undefined) {
  for (let i = 0; i < rules.length; i++) {
    const [field, rule] = rules[i]!;
    const problem = skipMissing && input[field] === undefined ? undefined : rule(input[field]);
    if (problem) (issues ??= []).push({ path: [field], code: problem[0], message: problem[1] });
  }
  return issues;
}

/** Throws {@link HubValidationError} naming every problem of `input`'s key, then of its `fields` (`optional`: when given). */
function check(what: string, input: Record<string, unknown>, fields: Array<[string, Rule]>, optional: boolean): void {
  let issues = issuesOf(input, fields, optional, issuesOf(input, KEY, true, undefined));
  if (input.secret === undefined && input.signingKey === undefined) (issues ??= []).push({ path: ["secret"], code: "custom", message: KEY_MISSING });
  if (issues) throw new HubValidationError({ what, issues });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Throws {@link HubValidationError} unless a server client's key options are usable (HubClient's own checks refused a non-object). */
export function checkKeyOptions(options: unknown): void {
  if (isObject(options)) check("client options", options, OPTIONS, true);
}

const SIGNER_CACHE_SIZE = 16;

/** `deriveSigningKey` and `signRequest` for one crypto backend. */
export function createSigning(backend: HmacBackend) {
  // Prepared signers (a KeyObject or CryptoKey inside) by signing key, so that signing with a
  // known key costs one HMAC: the signer itself once ready (no await), its promise until then.
  // Only derived keys are cached, never secrets; never a failure.
  const signers = new Map<string, PayloadSigner | Promise<PayloadSigner>>();
  const signerFor = (key: string) => {
    let signer = signers.get(key);
    if (signer === undefined) {
      if (signers.size >= SIGNER_CACHE_SIZE) signers.delete(signers.keys().next().value!);
      const pending = Promise.resolve(backend.signerFor(key));
      signers.set(key, (signer = pending));
      pending.then(
        (ready) => signers.get(key) === pending && signers.set(key, ready),
        () => signers.get(key) === pending && signers.delete(key),
      );
    }
    return signer;
  };

  async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
    assertNotBrowser(options.dangerouslyAllowBrowser);
    const problem = secretRule(secret);
    if (problem) throw new HubValidationError({ what: "secret", issues: [{ path: ["secret"], code: problem[0], message: problem[1] }] });
    return backend.sha256Hex(secret);
  }

  async function signRequest(input: SignRequestInput): Promise<string> {
    assertNotBrowser(input?.dangerouslyAllowBrowser);
    if (!isObject(input)) throw new HubValidationError({ what: "signing input", issues: [{ path: [], code: "invalid_type", message: SIGN_INPUT }] });
    check("signing input", input, SIGN_INPUT_FIELDS, false);
    const signer = signerFor(input.signingKey ?? (await backend.sha256Hex(input.secret)));
    const sign = typeof signer === "function" ? signer : await signer;
    return sign(signingPayload(input));
  }

  return { deriveSigningKey, signRequest };
}
