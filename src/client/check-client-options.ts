import type { ValidationIssue } from "../core/errors/hub-validation-error";
import { assertNoIssues, isSlug } from "../core/checks";
import { LEVELS, type LogLevel } from "../core/log";
import type { HubClientOptions } from "../core/types/options";

// A header value must not hold CR, LF or NUL (header injection), nor, for fetch, code points
// beyond Latin-1. A client id is stricter: printable ASCII, no spaces, which also catches the
// trailing newline an environment variable read from a file often has.
const TOKEN = /^[\x21-\x7e]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

type Test = (value: unknown) => boolean;
const optional = (test: Test): Test => (value) => value === undefined || test(value);
const isObject = (value: unknown): value is object => typeof value === "object" && value !== null;
const count = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;
const duration = (value: unknown) => Number.isFinite(value) && (value as number) >= 0;
const fn = (value: unknown) => typeof value === "function";

// Each option: its path, its test, and what it must be. No message ever holds the value: a
// server client's options also hold the secret.
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
  ["logger", optional((v) => isObject(v) && LEVELS.slice(1).every((m) => fn((v as Record<string, unknown>)[m]))), "an object with error, warn, info and debug methods"],
  [
    "headers",
    optional((v) => isObject(v) && Object.entries(v).every(([name, value]) => HEADER_NAME.test(name) && typeof value === "string" && HEADER_VALUE.test(value))),
    "an object of valid header names and string values without line breaks",
  ],
];

const at = (options: unknown, path: string[]) => path.reduce<unknown>((value, key) => (isObject(value) ? (value as Record<string, unknown>)[key] : undefined), options);

/** Checks constructor options one field at a time. Unknown keys are ignored. */
export function checkClientOptions(options: HubClientOptions): void {
  const hubProblem = isSlug(options.hub);
  const issues: ValidationIssue[] = hubProblem ? [{ path: ["hub"], ...hubProblem }] : [];
  for (const [name, test, expected] of RULES) {
    const path = name.split(".");
    if (!test(at(options, path))) issues.push({ path, code: "invalid_type", message: `${name} must be ${expected}` });
  }
  assertNoIssues("client options", issues);
}
