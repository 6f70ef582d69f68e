import { HubError } from "./hub-error";
import type { ValidationIssue } from "./hub-validation-error";

/**
 * Why a successful (2xx) response could not be used.
 * @example
 * ```ts
 * if (error instanceof HubResponseError && error.problem === "invalid-json") console.log(error.bodyExcerpt);
 * ```
 */
export type ResponseProblem = "empty-body" | "invalid-json" | "unexpected-shape" | "schema-mismatch";

/**
 * The server answered 2xx but the body is not usable: empty, not JSON, not the JSON kind the
 * call returns, or not matching the `schema` you passed. The raw text is kept in `body`.
 *
 * @example
 * ```ts
 * if (error instanceof HubResponseError) console.log(error.status, error.problem, error.bodyExcerpt);
 * ```
 */
export class HubResponseError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubResponseError";
  /** The HTTP status of the answer (2xx). */
  declare readonly status: number;
  /** What is wrong with the body. */
  declare readonly problem: ResponseProblem;
  /** The body: its text (the first 4 KB) for `empty-body` and `invalid-json`, the parsed JSON for `unexpected-shape` and `schema-mismatch`. */
  declare readonly body: unknown;
  /** A short, single-line excerpt of the body for logs. */
  declare readonly bodyExcerpt: string;
  /** Schema issues, for `schema-mismatch`. */
  declare readonly issues: ReadonlyArray<ValidationIssue>;

  constructor(init: {
    status: number;
    problem: ResponseProblem;
    body: unknown;
    bodyExcerpt: string;
    detail: string;
    issues?: ReadonlyArray<ValidationIssue>;
    /** The answer was a write's 2xx: the write was applied, whatever its body. */
    mayHaveBeenApplied?: boolean | undefined;
  }) {
    super({ message: `Unusable ${init.status} response (${init.problem}): ${init.detail}`, mayHaveBeenApplied: init.mayHaveBeenApplied });
    this.status = init.status;
    this.problem = init.problem;
    this.body = init.body;
    this.bodyExcerpt = init.bodyExcerpt;
    this.issues = init.issues ?? [];
  }
}
