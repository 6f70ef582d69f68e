import { normalizeBaseUrl, pathOf, textProblem, type Problem } from "../client/check-input";
import { HubValidationError, type ValidationIssue } from "../core/errors";
import { assertNotBrowser } from "./browser-guard";

/**
 * The string a write signature covers (spec part 5): timestamp, upper-case method, the path as
 * sent (with `/api/v1` and the same percent-encoding), and the exact body, joined by `.`. Pure:
 * a server implementer can build the same string and compare it with a refused write's `signing`.
 * @example
 * ```ts
 * signingPayload({ timestamp: "1700000000", method: "post", path: "/api/v1/hub/alpha/bits/earn", body: "{}" });
 * // "1700000000.POST./api/v1/hub/alpha/bits/earn.{}"
 * ```
 */
export function signingPayload(parts: { timestamp: string; method: string; path: string; body: string }): string {
  return `${parts.timestamp}.${parts.method.toUpperCase()}.${parts.path}.${parts.body}`;
}

/** The path segments of `POST /hub/{slug}/bits/earn`, after the base address. */
export const awardSegments = (hub: string) => ["hub", hub, "bits", "earn"];

/**
 * The path an award to `hub` is sent to and signed with, under `baseUrl` (normalized as the client
 * does: a bare origin gets `/api/v1`), percent-encoded as sent: the `path` of `signRequest` for a
 * hand-made award request.
 * @throws {HubValidationError} for a base URL the client would refuse.
 * @example
 * ```ts
 * awardPath({ baseUrl: "https://hub.example.com", hub: "alpha" }); // "/api/v1/hub/alpha/bits/earn"
 * ```
 */
export function awardPath(options: { baseUrl: string; hub: string }): string {
  return new URL(pathOf(awardSegments(options.hub)), `${normalizeBaseUrl(options.baseUrl).href}/`).pathname;
}

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

/** Input of `signRequest`: either the secret or its derived signing key, and what is sent. */
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
const KEY_BOTH = "`secret` and `signingKey` are both given: give one of them (they may not be the same key)";

/*
 * Plain predicates, not zod: signRequest may sign every request of a hand-made client, and a zod
 * parse per call cost a third of a signature (bench/RESULTS.md). The issues keep zod's codes, so an
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
 * `secret` and `signingKey` as given: each optional, but exactly one is needed (`keyCount`, last,
 * so that every problem is named at once).
 */
const keyIssues = (input: Record<string, unknown>) =>
  add(
    add(undefined, "secret", input.secret === undefined ? undefined : textProblem("secret", input.secret)),
    "signingKey",
    input.signingKey === undefined ? undefined : formatProblem(input.signingKey, isSigningKey, SIGNING_KEY),
  );
const keyCount = (input: Record<string, unknown>, issues: Issues | undefined) => {
  const given = Number(input.secret !== undefined) + Number(input.signingKey !== undefined);
  return add(issues, "secret", given === 1 ? undefined : { code: "custom", message: given === 0 ? KEY_MISSING : KEY_BOTH });
};

/** Throws {@link HubValidationError} unless a server client's key options are usable (called after HubClient's own checks, which refuse a non-object). */
export function checkKeyOptions(options: object): void {
  const { dangerouslyAllowBrowser: allow, budget } = options as Record<string, unknown>;
  let issues = add(keyIssues(options as Record<string, unknown>), "dangerouslyAllowBrowser", allow === undefined || typeof allow === "boolean" ? undefined : { code: "invalid_type", message: "dangerouslyAllowBrowser must be true or false" });
  const store = budget === undefined || (isObject(budget) && typeof budget.open === "function");
  issues = add(issues, "budget", store ? undefined : { code: "invalid_type", message: "budget must be a budget store (redisBudget() from public-hub-sdk/server)" });
  // A server client's option: checked here, out of the browser's bundle.
  const { duplicate } = options as Record<string, unknown>;
  issues = add(issues, "duplicate", duplicate === undefined || typeof duplicate === "function" ? undefined : { code: "invalid_type", message: "duplicate must be a function" });
  issues = keyCount(options as Record<string, unknown>, issues);
  if (issues) throw new HubValidationError({ what: "client options", issues });
}

/** Throws {@link HubValidationError} unless `input` is a complete {@link SignRequestInput}. */
function checkSignInput(input: unknown): asserts input is SignRequestInput {
  if (!isObject(input)) throw new HubValidationError({ what: "signing input", issues: [{ path: [], code: "invalid_type", message: SIGN_INPUT }] });
  let issues = add(keyIssues(input), "timestamp", formatProblem(input.timestamp, isUnixSeconds, TIMESTAMP));
  issues = add(add(issues, "method", textProblem("method", input.method)), "path", formatProblem(input.path, startsWithSlash, PATH));
  issues = keyCount(input, add(issues, "body", typeof input.body === "string" ? undefined : { code: "invalid_type", message: "body must be the exact string sent" }));
  if (issues) throw new HubValidationError({ what: "signing input", issues });
}

const encoder = new TextEncoder();
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
const toHex = (buffer: ArrayBuffer) => {
  let hex = "";
  for (const byte of new Uint8Array(buffer)) hex += HEX[byte];
  return hex;
};

/** Lowercase hex SHA-256 of the UTF-8 text, with WebCrypto (`crypto.subtle`: Node ≥ 20, Bun, Deno, workers). */
export const sha256Hex = async (text: string): Promise<string> => toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));

/** HMAC-SHA256 keyed with the UTF-8 bytes of `signingKey`, giving lowercase hex; the key is imported once, here. */
export async function hmacSigner(signingKey: string): Promise<(payload: string) => Promise<string>> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(signingKey), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return async (payload) => toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(payload)));
}

/**
 * The signing key of a secret: the lowercase hex SHA-256 of its UTF-8 bytes, which is what the
 * server stores. Store this instead of the secret if you like, and pass it as `signingKey`.
 * @throws {HubValidationError} for an empty secret.
 * @example
 * ```ts
 * const signingKey = await deriveSigningKey(process.env.HUB_SECRET!);
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", signingKey });
 * ```
 */
export async function deriveSigningKey(secret: string, options: { dangerouslyAllowBrowser?: boolean } = {}): Promise<string> {
  assertNotBrowser(options.dangerouslyAllowBrowser);
  const issues = add(undefined, "secret", textProblem("secret", secret));
  if (issues) throw new HubValidationError({ what: "secret", issues });
  return sha256Hex(secret);
}

/**
 * The `x-api-signature` of one request: lowercase hex HMAC-SHA256 of `timestamp.METHOD.path.body`,
 * keyed with the signing key (from `signingKey`, or derived from `secret`). `HubServerClient`
 * does this for every attempt; use it directly for a hand-made request.
 * @throws {HubValidationError} for malformed input.
 * @example
 * ```ts
 * const signature = await signRequest({
 *   secret: process.env.HUB_SECRET!,
 *   timestamp: String(Math.floor(Date.now() / 1000)),
 *   method: "POST",
 *   path: "/api/v1/hub/alpha/bits/earn",
 *   body: '{"wallet":"0xabc","amount":10,"ref":"r1"}',
 * });
 * ```
 */
export async function signRequest(input: SignRequestInput): Promise<string> {
  assertNotBrowser(input?.dangerouslyAllowBrowser);
  checkSignInput(input);
  const sign = await hmacSigner(input.signingKey ?? (await sha256Hex(input.secret)));
  return sign(signingPayload(input));
}
