import { HubError } from "./hub-error";

/**
 * One problem found in the input, with the path of the offending field.
 * @example
 * ```ts
 * const issue: ValidationIssue = { path: ["limit"], code: "invalid_type", message: "limit must be an integer" };
 * ```
 */
export interface ValidationIssue {
  /** Where the problem is, e.g. `["amount"]`; empty for the value itself. */
  readonly path: ReadonlyArray<PropertyKey>;
  /** What is wrong, in words. */
  readonly message: string;
  /** The zod issue code, e.g. `"too_small"`. */
  readonly code: string;
}

/**
 * Bad input, found before anything was sent: no request reached the server.
 *
 * @example
 * ```ts
 * try {
 *   await hub.getLeaderboard({ limit: 2.5 });
 * } catch (error) {
 *   if (error instanceof HubValidationError) console.log(error.issues); // [{ path: ["limit"], … }]
 * }
 * ```
 */
export class HubValidationError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubValidationError" as const;
  /** Every problem found, not only the first. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;

  /** @param init `what` names the input in the message ("award", "client options"); `issues` are every problem found. */
  constructor(init: { what: string; issues: ReadonlyArray<ValidationIssue> }) {
    const detail = init.issues
      .map((issue) => (issue.path.length > 0 ? `${issue.path.map(String).join(".")}: ` : "") + issue.message)
      .join("; ");
    super({ message: `Invalid ${init.what}: ${detail}` });
    this.issues = init.issues;
  }
}
