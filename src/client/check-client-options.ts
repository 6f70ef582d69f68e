import type { ValidationIssue } from "../core/errors/hub-validation-error";
import { assertNoIssues, isCount, isDuration, isNonEmpty, isSlug, isTimeout, issuesOf, satisfies } from "../core/checks";
import type { HubClientOptions } from "../core/types/options";

const RETRY_FIELDS = ["backoff", "maxBackoff", "maxRetryAfter"] as const;

// A header value must not hold CR, LF or NUL (header injection), nor, for fetch, code points
// beyond Latin-1. A client id is stricter: printable ASCII, no spaces, which also catches the
// trailing newline an environment variable read from a file often has.
const TOKEN = /^[\x21-\x7e]+$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
const isClientId = satisfies(
  (value) => typeof value === "string" && TOKEN.test(value),
  "clientId must be printable ASCII without spaces or line breaks (a trailing newline from the environment?)",
);
const safeHeaders = (headers: unknown) =>
  typeof headers === "object" &&
  headers !== null &&
  Object.entries(headers).every(([name, value]) => HEADER_NAME.test(name) && typeof value === "string" && HEADER_VALUE.test(value));

const mustBe = (ok: boolean, path: string, message: string): ValidationIssue[] =>
  ok ? [] : [{ path: [path], code: "invalid_type", message }];

/**
 * Checks constructor options one field at a time. Unknown keys are ignored and no value is ever
 * echoed in a message: a server client's options also hold the secret.
 */
export function checkClientOptions(options: HubClientOptions): void {
  const { timeout, retry, fetch, headers, onRequest, rateLimit } = options;
  const issues = [
    ...issuesOf(typeof options.clientId === "string" && options.clientId !== "" ? isClientId : isNonEmpty("clientId"), options.clientId, ["clientId"]),
    ...issuesOf(isSlug, options.hub, ["hub"]),
    ...(timeout === undefined || timeout === false ? [] : issuesOf(isTimeout, timeout, ["timeout"])),
    ...(typeof retry === "object" && retry !== null
      ? [
          ...(retry.limit === undefined ? [] : issuesOf(isCount("retry.limit"), retry.limit, ["retry", "limit"])),
          ...RETRY_FIELDS.flatMap((name) => (retry[name] === undefined ? [] : issuesOf(isDuration(`retry.${name}`), retry[name], ["retry", name]))),
        ]
      : retry === undefined
        ? []
        : issuesOf(isCount("retry"), retry, ["retry"])),
    ...rateLimitIssues(rateLimit),
    ...mustBe(fetch === undefined || typeof fetch === "function", "fetch", "fetch must be a function"),
    ...mustBe(onRequest === undefined || typeof onRequest === "function", "onRequest", "onRequest must be a function"),
    ...mustBe(
      headers === undefined || safeHeaders(headers),
      "headers",
      "headers must be an object of valid header names and string values without line breaks",
    ),
  ];
  assertNoIssues("client options", issues);
}

const positive = (value: unknown) => typeof value === "number" && value > 0; // Infinity allowed: no limit

function rateLimitIssues(rateLimit: HubClientOptions["rateLimit"]): ValidationIssue[] {
  if (rateLimit === undefined) return [];
  if (typeof rateLimit !== "object" || rateLimit === null) return mustBe(false, "rateLimit", "rateLimit must be an object");
  const { maxConcurrency, maxRequestsPerSecond, retryBudget } = rateLimit;
  const at = (name: string, ok: boolean, message: string) => (ok ? [] : [{ path: ["rateLimit", name], code: "invalid_type", message }]);
  return [
    ...at("maxConcurrency", maxConcurrency === undefined || (Number.isInteger(maxConcurrency) && maxConcurrency > 0), "rateLimit.maxConcurrency must be a positive integer"),
    ...at("maxRequestsPerSecond", maxRequestsPerSecond === undefined || positive(maxRequestsPerSecond), "rateLimit.maxRequestsPerSecond must be a positive number"),
    ...at("retryBudget", retryBudget === undefined || (typeof retryBudget === "number" && retryBudget >= 0), "rateLimit.retryBudget must be a number ≥ 0"),
  ];
}
