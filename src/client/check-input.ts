import { HubValidationError, type ValidationIssue } from "../core/errors/hub-validation-error";
import { LEVELS, type LogLevel } from "../core/log";
import type { HubClientOptions } from "../core/types/options";

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

/** A path segment value: a non-blank string, and not `.`/`..`, which URL parsers collapse even encoded. */
function segmentProblem(what: string, value: unknown): Problem | undefined {
  return textProblem(what, value) ?? (value === "." || value === ".." ? { code: "custom", message: `${what} must not be "." or ".."` } : undefined);
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

/**
 * Checks a leaderboard `limit`: absent, or a positive integer.
 * @throws {HubValidationError} for anything else (a string, NaN, 1.5, 0…).
 */
export function checkLimit(limit: unknown): void {
  if (limit !== undefined) throwIf("leaderboard query", "limit", limitProblem(limit));
}

function limitProblem(limit: unknown): Problem | undefined {
  // Number.isFinite is false for anything but a finite number: it does not coerce.
  if (!Number.isFinite(limit)) return { code: "invalid_type", message: "limit must be a finite number" };
  if (!Number.isInteger(limit)) return { code: "invalid_type", message: "limit must be an integer" };
  return (limit as number) > 0 ? undefined : { code: "too_small", message: "limit must be greater than 0" };
}

// A header value must not hold CR, LF or NUL (header injection), nor, for fetch, code points
// beyond Latin-1. A client id is stricter: printable ASCII, no spaces, which also catches the
// trailing newline an environment variable read from a file often has.
const TOKEN = /^[\x21-\x7e]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type Test = (value: unknown) => boolean;
const optional = (test: Test): Test => (value) => value === undefined || test(value);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;
const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const duration = (value: unknown) => Number.isFinite(value) && (value as number) >= 0;
const fn = (value: unknown) => typeof value === "function";

// Each option: its path, its test, and what it must be.
const COUNT = "an integer ≥ 0";
const DURATION = "a finite number ≥ 0";
const RULES: ReadonlyArray<[path: string, test: Test, expected: string]> = [
  ["clientId", (v) => typeof v === "string" && TOKEN.test(v), "printable ASCII without spaces or line breaks (a trailing newline from the environment?)"],
  ["timeout", optional((v) => v === false || (Number.isFinite(v) && (v as number) > 0)), "a positive number of milliseconds, or false"],
  ["retry", optional((v) => count(v) || isObject(v)), `${COUNT} or retry options`],
  ["retry.limit", optional(count), COUNT],
  ["retry.backoff", optional(duration), DURATION],
  ["retry.maxBackoff", optional(duration), DURATION],
  ["retry.maxRetryAfter", optional(duration), DURATION],
  ["rateLimit", optional(isObject), "an object"],
  ["rateLimit.maxConcurrency", optional((v) => count(v) && (v as number) > 0), "a positive integer"],
  ["rateLimit.maxRequestsPerSecond", optional((v) => typeof v === "number" && v > 0), "a positive number"],
  ["rateLimit.retryBudget", optional((v) => typeof v === "number" && v >= 0), "a number ≥ 0"],
  ["fetch", optional(fn), "a function"],
  ["onRequest", optional(fn), "a function"],
  ["logLevel", optional((v) => LEVELS.includes(v as LogLevel)), LEVELS.join(", ")],
  ["logger", optional((v) => isObject(v) && LEVELS.slice(1).every((m) => fn(v[m]))), "an object with error, warn, info and debug methods"],
  [
    "headers",
    optional((v) => isObject(v) && Object.entries(v).every(([name, value]) => HEADER_NAME.test(name) && typeof value === "string" && HEADER_VALUE.test(value))),
    "an object of valid header names and string values without line breaks",
  ],
];

const at = (options: unknown, path: string[]) => path.reduce<unknown>((value, key) => (isObject(value) ? value[key] : undefined), options);

/**
 * Checks a client's constructor options (all but `baseUrl`, which `normalizeBaseUrl` reads), one
 * field at a time, and names every problem. Unknown keys are ignored: a subclass adds its own.
 * @throws {HubValidationError} when an option is missing or malformed.
 */
export function checkClientOptions(options: HubClientOptions): void {
  const hub = segmentProblem("hub slug", options.hub);
  const issues: ValidationIssue[] = hub ? [{ path: ["hub"], ...hub }] : [];
  for (const [name, test, expected] of RULES) {
    const path = name.split(".");
    if (!test(at(options, path))) issues.push({ path, code: "invalid_type", message: `${name} must be ${expected}` });
  }
  if (issues.length > 0) throw new HubValidationError({ what: "client options", issues });
}
