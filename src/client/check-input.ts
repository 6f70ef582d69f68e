import { HubValidationError, type ValidationIssue } from "../core/errors";
import { LEVELS } from "../core/request";
import type { LogLevel } from "../core/types/options";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import { HUB_OPERATIONS, VALIDATE_MODES } from "../core/types/schemas";

/**
 * The browser entry's input checks: the hub slug, a wallet, a leaderboard limit and the client
 * options. Plain predicates rather than zod: every input here is one string or number (or an
 * options bag of them), and zod/mini's parser alone would take the browser bundle over its 12 KB
 * budget (docs/build-notes.md). Object shapes outside the browser entry use zod (`src/server`).
 * No message ever holds the value: a server client's options also hold the secret.
 */

/** What is wrong with one input, before it is placed at its path. */
export type Problem = Omit<ValidationIssue, "path">;

/** A non-blank string: the one check of every text input (a slug, a wallet, a secret, a method). */
export function textProblem(what: string, value: unknown): Problem | undefined {
  if (typeof value !== "string") return { code: "invalid_type", message: `${what} must be a string` };
  return value.trim() === "" ? { code: "too_small", message: `${what} must not be empty` } : undefined;
}

// Half of a UTF-16 surrogate pair (with the u flag, a whole pair is one code point and does not
// match): encodeURIComponent throws on it, and URLSearchParams silently sends U+FFFD instead.
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * A path segment or query value: a non-blank string of well-formed text, and not `.`/`..`, which
 * URL parsers collapse even encoded. Missing (undefined, null: an unset variable) says so.
 */
function segmentProblem(what: string, value: unknown): Problem | undefined {
  if (value == null) return { code: "invalid_type", message: `${what} is missing` };
  const problem = textProblem(what, value);
  if (problem) return problem;
  if (value === "." || value === "..") return { code: "custom", message: `${what} must not be "." or ".."` };
  if (LONE_SURROGATE.test(value as string)) return { code: "custom", message: `${what} must not hold a lone surrogate` };
  return undefined;
}

function throwIf(what: string, field: string, problem: Problem | undefined): void {
  if (problem) throw new HubValidationError({ what, issues: [{ path: [field], ...problem }] });
}

/**
 * Checks a wallet given to a read; it becomes a path segment or a query value.
 * @throws {HubValidationError} for a non-string, blank, `.` or `..` wallet.
 */
export function checkWallet(wallet: unknown): void {
  throwIf("wallet", "wallet", segmentProblem("wallet", wallet));
}

// A client id is stricter than a header value (fetch's Headers refuses CR, LF or NUL within it, and
// code points beyond Latin-1): printable ASCII, no spaces, which also catches the trailing newline
// an environment variable read from a file often has.
const TOKEN = /^[\x21-\x7e]+$/;

type Test = (value: unknown) => boolean;
/** A test that also accepts `undefined` (an option left out). */
export const optional = (test: Test): Test => (value) => value === undefined || test(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const duration = (value: unknown) => Number.isFinite(value) && (value as number) >= 0;
const fn = (value: unknown) => typeof value === "function";
const text = (value: unknown) => typeof value === "string" && value !== "";
const includes = (list: readonly string[]) => (value: unknown) => list.includes(value as string);
// A Standard Schema: an object (zod, valibot) or a function (arktype) whose `~standard` validates.
const isSchema = optional((value) => fn((value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"]?.validate));
// Each key an operation: a misspelt `holders` would leave its reads unchecked without a word.
const schemasByOperation = (value: unknown) => isObject(value) && Object.entries(value).every(([name, schema]) => includes(HUB_OPERATIONS)(name) && isSchema(schema));
const VALIDATE = VALIDATE_MODES.join(", ");

/** The longest timeout a timer can hold (2^31 − 1 ms, about 24.8 days); ky refuses a longer one. */
export const MAX_TIMEOUT = 2_147_483_647;

// Each option: its path, its test, and what it must be. Every nested option has a rule: the rules
// also name the known nested options (`retry.limit`…).
const COUNT = "an integer ≥ 0";
const DURATION = "a finite number ≥ 0";
/** An option's rule: its path (`retry.limit`), its test, and what it must be, in words. */
export type Rule = [path: string, test: Test, expected: string];
const RULES: readonly Rule[] = [
  ["clientId", (v) => typeof v === "string" && TOKEN.test(v), "printable ASCII without spaces or line breaks (a trailing newline from the environment?)"],
  ["timeout", optional((v) => v === false || (Number.isFinite(v) && (v as number) > 0 && (v as number) <= MAX_TIMEOUT)), "milliseconds in (0, 2^31 − 1], or false"],
  ["retry", optional((v) => count(v) || isObject(v)), `${COUNT} or retry options`],
  ["retry.limit", optional(count), COUNT],
  ["retry.backoff", optional(duration), DURATION],
  ["retry.maxBackoff", optional(duration), DURATION],
  ["retry.maxRetryAfter", optional(duration), DURATION],
  ["maxConcurrency", optional((v) => count(v) && (v as number) > 0), "a positive integer"],
  ["unwrap", optional(text), "a non-empty string: the envelope's key of the payload"],
  // The fields this client reads; HubServerClient and the mock check the whole profile (src/core/profile.ts).
  ["profile", optional((v) => isObject(v) && v.version === 1 && optional(text)(v.envelope)), "a hub profile"],
  ["telemetry", optional((v) => isObject(v) && fn(v.observe)), "made by openTelemetry() or defineTelemetry()"],
  ["fetch", optional(fn), "a function"],
  ["onRequest", optional(fn), "a function"],
  ["logLevel", optional((v) => LEVELS.includes(v as LogLevel)), LEVELS.join(", ")],
  ["validate", optional(includes(VALIDATE_MODES)), VALIDATE],
  ["schemas", optional(schemasByOperation), `an object of Standard Schemas by operation: ${HUB_OPERATIONS.join(", ")}`],
  ["logger", optional((v) => isObject(v) && LEVELS.slice(1).every((m) => fn(v[m]))), "a logger (error, warn, info, debug)"],
  [
    "headers",
    // The platform's own rules for a name and a value (fetch's Headers), each value a string.
    optional((v) => {
      try {
        return isObject(v) && Object.values(v).every((value) => typeof value === "string") && !!new Headers(v as Record<string, string>);
      } catch {
        return false;
      }
    }),
    "valid header names with string values, no line breaks",
  ],
];

const at = (options: unknown, path: string[]) => path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), options);

/**
 * Every constructor option of `HubClient`, named once: any other name is refused, so that a typo
 * (`timout`) is not silently ignored. A new option adds its name here (and a rule in `RULES`
 * when its value needs checking). `telemetry` is checked by its own code. Nested names
 * (`retry.limit`…) are those of the rules.
 */
export const CLIENT_OPTIONS = ["baseUrl", "clientId", "hub", "timeout", "retry", "maxConcurrency", "fetch", "headers", "logLevel", "logger", "onRequest", "schemas", "validate", "telemetry", "unwrap", "profile"] as const;

/** The options only `HubServerClient` takes: `HubServerClient`'s names are `CLIENT_OPTIONS` and these. */
export const SERVER_ONLY_OPTIONS = ["secret", "signingKey", "dangerouslyAllowBrowser", "duplicate", "budget"] as const;

/** Every per-call option (`RequestOptions`), named once, as `CLIENT_OPTIONS`. */
export const CALL_OPTIONS = ["signal", "schema", "timeout", "retry", "validate"] as const;

// Every name of the option types is listed (a compile error here names the one that is not).
const listed: [Exclude<keyof HubClientOptions, (typeof CLIENT_OPTIONS)[number]>, Exclude<keyof RequestOptions, (typeof CALL_OPTIONS)[number]>] extends [never, never] ? true : never = true;
void listed;

// A call's own rules, then the client's rules for `timeout` and `retry`, which a call may override.
const CALL_RULES: readonly Rule[] = [
  ["signal", optional((v) => v instanceof AbortSignal), "an AbortSignal"],
  ["schema", isSchema, "a Standard Schema (zod, valibot…: with ~standard.validate)"],
  ["validate", optional(includes(VALIDATE_MODES)), VALIDATE],
  ...RULES.filter(([name]) => /^(timeout|retry)/.test(name)),
];

/** An unknown name; a server client's option given to a browser client says where it belongs. */
function unknownName(path: string[]): ValidationIssue {
  const name = path.at(-1)!;
  const message = (SERVER_ONLY_OPTIONS as readonly string[]).includes(name) ? `${name} is for HubServerClient, on a server` : `unknown option "${path.join(".")}"`;
  return { path, code: "unrecognized_keys", message };
}

/**
 * Checks an options object (or nothing): every name known (nested names are those of the rules),
 * every rule kept; a missing or empty required value says so. Throws all the issues at once. The
 * one routine for every options bag of the SDK (client, call, leaderboard query, campaign).
 * @throws {HubValidationError} naming every problem.
 */
export function checkOptions(what: string, options: unknown, rules: readonly Rule[], known: readonly string[], issues: ValidationIssue[] = []): void {
  if (options !== undefined && !isObject(options)) issues.push({ path: [], code: "invalid_type", message: "must be an object" });
  else if (options) {
    for (const key of Object.keys(options)) {
      if (!known.includes(key)) issues.push(unknownName([key]));
      const nested = rules.map(([name]) => name.split(".")).flatMap(([root, name]) => (root === key && name ? [name] : []));
      const value = options[key];
      if (nested.length > 0 && isObject(value)) issues.push(...Object.keys(value).flatMap((name) => (nested.includes(name) ? [] : [unknownName([key, name])])));
    }
    for (const [name, test, expected] of rules) {
      const path = name.split(".");
      const value = at(options, path);
      if (!test(value)) issues.push({ path, code: "invalid_type", message: `${name} ${value === undefined || value === "" ? `is ${value === "" ? "empty" : "missing"} (is its environment variable set?)` : `must be ${expected}`}` });
    }
  }
  if (issues.length > 0) throw new HubValidationError({ what, issues });
}

/**
 * Checks a client's constructor options (all but `baseUrl`, which `normalizeBaseUrl` reads), one
 * field at a time, and names every problem: a name not in `known` (the class's option names), a
 * missing or empty value, a malformed one.
 * @throws {HubValidationError} when an option is unknown, missing or malformed.
 */
export function checkClientOptions(options: HubClientOptions, known: readonly string[] = CLIENT_OPTIONS): void {
  const hub = segmentProblem("hub slug", options.hub);
  checkOptions("client options", options, RULES, known, hub ? [{ path: ["hub"], ...hub }] : []);
}

/**
 * Checks a call's options before anything is sent: nothing, or an object of known names, a real
 * `AbortSignal`, a Standard Schema, and `timeout` and `retry` by the client options' rules.
 * @throws {HubValidationError} naming every problem.
 */
export function checkCallOptions(options: unknown): void {
  checkOptions("call options", options, CALL_RULES, CALL_OPTIONS);
}

/**
 * Checks the query of a leaderboard read: nothing, or an object holding at most `limit`, a
 * positive integer, and `page`, the hub's own page parameters: an object (without `limit`, which
 * goes beside it) whose names and values are well-formed non-blank text, a value also a safe integer.
 * @throws {HubValidationError} for anything else, naming the first bad page parameter.
 */
export function checkLeaderboardQuery(query: unknown): void {
  checkOptions(
    "leaderboard query",
    query ?? undefined,
    [
      // Beyond 2^53 a number is no longer an exact integer, and 1e21 would be sent as "1e+21".
      ["limit", optional((v) => Number.isSafeInteger(v) && (v as number) > 0), "a positive integer (at most 2^53 − 1)"],
      ["page", optional((v) => isObject(v) && !Array.isArray(v) && !("limit" in v)), "an object without limit"],
    ],
    ["limit", "page"],
  );
  const { page } = (query ?? {}) as { page?: object };
  for (const [name, value] of Object.entries(page ?? {})) {
    // Each name and value as a wallet is checked: well-formed, non-blank text; a safe integer as the text it is sent as.
    const what = `page.${name}`;
    throwIf("leaderboard query", what, segmentProblem(what, name) ?? segmentProblem(what, Number.isSafeInteger(value) ? `${value}` : value));
  }
}


const API_PREFIX = "/api/v1";

/**
 * The API base address as a URL without a trailing slash. A bare origin gets `/api/v1`; any
 * other path is kept as given (a proxy may mount the API elsewhere). No default host exists.
 */
export function normalizeBaseUrl(baseUrl: unknown): URL {
  const fail = (message: string): never => {
    throw new HubValidationError({ what: "client options", issues: [{ path: ["baseUrl"], code: "invalid_url", message }] });
  };
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    return fail('is required: the API base address (is its environment variable set?)');
  }
  let url: URL | undefined;
  try {
    url = new URL(baseUrl.trim());
  } catch {}
  // "hub.example.com/api/v1" has no scheme; "localhost:4010" reads as the scheme "localhost:".
  // Echoed without what may be a credential: a user and password, a query, a fragment.
  const shown = baseUrl.trim().replace(/^([a-z]+:\/\/)?[^/@]*@|[?#].*/gis, "$1");
  if (url?.protocol !== "https:" && url?.protocol !== "http:") return fail(`"${shown}" must be an absolute http(s) URL, such as "https://${shown.replace(/^[a-z]+:\/\//i, "")}"`);
  // Not echoed: a query may hold a token.
  if (url.search !== "" || url.hash !== "") fail("must not carry a query or fragment");
  if (url.username !== "" || url.password !== "") fail(`"${url.host}" must not carry credentials`);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path === "" ? API_PREFIX : path;
  return url;
}

/**
 * The one way the SDK builds request paths: every segment is percent-encoded, so a slug or wallet
 * holding `/`, `?`, `#`, spaces or non-ASCII text stays exactly one path segment. The result is
 * relative to the client's base address (ky's `prefixUrl`).
 *
 * @example
 * ```ts
 * pathOf(["hub", "café", "holder", "a/b"]); // "hub/caf%C3%A9/holder/a%2Fb"
 * ```
 */
export function pathOf(segments: readonly string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join("/");
}
