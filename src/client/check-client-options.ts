import type { ValidationIssue } from "../core/errors/hub-validation-error";
import { assertNoIssues, isCount, isDuration, isNonEmpty, isSlug, isTimeout, issuesOf } from "../core/checks";
import type { HubClientOptions } from "../core/types/options";

const RETRY_FIELDS = ["backoff", "maxBackoff", "maxRetryAfter"] as const;

const mustBe = (ok: boolean, path: string, message: string): ValidationIssue[] =>
  ok ? [] : [{ path: [path], code: "invalid_type", message }];

/**
 * Checks constructor options one field at a time. Unknown keys are ignored and no value is ever
 * echoed in a message: a server client's options also hold the secret.
 */
export function checkClientOptions(options: HubClientOptions): void {
  const { timeout, retry, fetch, headers, onRequest } = options;
  const issues = [
    ...issuesOf(isNonEmpty("clientId"), options.clientId, ["clientId"]),
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
    ...mustBe(fetch === undefined || typeof fetch === "function", "fetch", "fetch must be a function"),
    ...mustBe(onRequest === undefined || typeof onRequest === "function", "onRequest", "onRequest must be a function"),
    ...mustBe(
      headers === undefined || (typeof headers === "object" && headers !== null && Object.values(headers).every((v) => typeof v === "string")),
      "headers",
      "headers must be an object of string values",
    ),
  ];
  assertNoIssues("client options", issues);
}
