/**
 * Checking a decoded body against the schema declared for its operation: the one place where
 * `validate` ("throw", "warn", "off") is applied, for reads and awards alike.
 */
import { HubSchemaError } from "../errors/hub-schema-error";
import type { ValidationIssue } from "../errors/hub-validation-error";
import type { Log } from "../log";
import type { HubOperation, ValidateMode } from "../types/schemas";
import type { StandardSchemaV1 } from "../types/standard-schema";

/** What a body is checked against, and what to do when it does not fit. */
export interface BodyCheck {
  operation: HubOperation | (string & {});
  schema: StandardSchemaV1 | undefined;
  mode: ValidateMode;
  /** A write the server answered 2xx: it was applied, whatever its body says. */
  applied: boolean;
  status: number;
  bodyExcerpt: string;
  requestId: string | undefined;
  log: Log;
}

/**
 * The body as the call returns it: the schema's output when it fits (or when nothing is checked:
 * no schema, or `"off"`, the body as sent). A misfit throws `HubSchemaError` (`"throw"`) or, with
 * `"warn"`, is logged once per field path and returned as sent.
 */
export async function checkBody<T>(value: unknown, check: BodyCheck): Promise<T> {
  const { schema, mode } = check;
  if (!schema || mode === "off") return value as T;
  const result = await schema["~standard"].validate(value);
  if (result.issues === undefined) return result.value as T;
  const issues = result.issues.map(
    (issue): ValidationIssue => ({ path: (issue.path ?? []).map((part) => (typeof part === "object" ? part.key : part)), message: issue.message, code: "schema_mismatch" }),
  );
  if (mode !== "warn") throw new HubSchemaError({ ...check, data: value, issues });
  // One record per field path, all its rules in it (a field may break several).
  const rules = new Map<string, string[]>();
  for (const { path, message } of issues) {
    const key = path.map(String).join(".") || "(root)";
    rules.set(key, [...(rules.get(key) ?? []), message]);
  }
  for (const [path, messages] of rules) {
    check.log("warn", "schema-mismatch", () => ({ operation: check.operation, path, rule: messages.join("; "), status: check.status, requestId: check.requestId }));
  }
  return value as T;
}
