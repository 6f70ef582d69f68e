import { HubResponseError } from "./hub-response-error";
import type { ValidationIssue } from "./hub-validation-error";
import type { HubOperation } from "../types/schemas";

/** A field path as messages and log records show it: `entries.0.staked`, `(root)` for the body. */
export const fieldPath = (path: ReadonlyArray<PropertyKey>) => path.map(String).join(".") || "(root)";

/**
 * A 2xx answer that does not fit the schema declared for its operation (the client's `schemas`,
 * or a call's `schema`) under `validate: "throw"`. It names the operation and every failing field
 * path with its rule, and keeps the data exactly as the server sent it.
 *
 * On an award the server answered with success, so the award **was applied**: `applied` and
 * `mayHaveBeenApplied` are true, the SDK never retries it, and `awardMany` counts it applied
 * (listing it in `mismatched`). Only its answer is not what you declared.
 *
 * Its `toJSON()` carries `operation`, `applied`, `issues` and `data` (the server's answer: no key
 * material), and, as for every `HubResponseError`, not the duplicate `body`.
 *
 * @example
 * ```ts
 * try {
 *   await hub.getHolder("0xabc");
 * } catch (error) {
 *   if (error instanceof HubSchemaError) console.error(error.operation, error.issues, error.data);
 * }
 * ```
 */
export class HubSchemaError extends HubResponseError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubSchemaError" as const;
  /**
   * The operation whose answer did not fit: a key of `schemas` (`"holder"`, `"award"`…), or for a
   * subclass's own call without one, its method and path.
   */
  declare readonly operation: HubOperation | (string & {});
  /** The body exactly as the server sent it (parsed JSON, untouched by the schema). */
  declare readonly data: unknown;
  /** True for an award: the server answered 2xx, so the award was applied. False for reads. */
  declare readonly applied: boolean;

  constructor(init: {
    operation: HubOperation | (string & {});
    status: number;
    data: unknown;
    issues: ReadonlyArray<ValidationIssue>;
    applied: boolean;
    bodyExcerpt: string;
  }) {
    const fields = init.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join("; ");
    const detail = `the ${init.operation} answer does not fit its schema: ${fields}${init.applied ? "; the award WAS applied: do not treat it as failed" : ""}`;
    super({ ...init, problem: "schema-mismatch", body: init.data, detail, mayHaveBeenApplied: init.applied });
    this.operation = init.operation;
    this.data = init.data;
    this.applied = init.applied;
  }
}
