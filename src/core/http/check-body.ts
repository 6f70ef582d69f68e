/**
 * Checking a decoded body against the schema declared for its operation: the one place where
 * `validate` ("throw", "warn", "off") is applied, for reads and awards alike. Kept small: it is in
 * every browser bundle, schemas or not.
 */
import { fieldPath, HubSchemaError } from "../errors/hub-schema-error";
import type { ValidationIssue } from "../errors/hub-validation-error";
import type { Log } from "../log";
import type { HubOperation, ValidateMode } from "../types/schemas";
import type { StandardSchemaV1 } from "../types/standard-schema";
import { excerpt, type TextResponse } from "./body";

/** What a body is checked against, and what to do when it does not fit. */
export interface BodyCheck {
  /** The operation, or for a subclass's own call without one, its method and path. */
  operation: HubOperation | (string & {});
  schema: StandardSchemaV1 | undefined;
  mode: ValidateMode;
  /** A write the server answered 2xx: it was applied, whatever its body says. */
  applied: boolean;
  answer: TextResponse;
  log: Log;
}

/**
 * The body as the call returns it: as sent when nothing is checked (no schema, or `"off"`), else the
 * schema's output when it fits. A misfit throws `HubSchemaError` (`"throw"`) or, with `"warn"`, is
 * returned as sent after one log record per field path.
 */
export async function checkBody<T>(value: unknown, { operation, schema, mode, applied, answer, log }: BodyCheck): Promise<T> {
  if (!schema || mode === "off") return value as T;
  const result = await schema["~standard"].validate(value);
  if (!result.issues) return result.value as T;
  const issues = result.issues.map(
    (issue): ValidationIssue => ({ path: (issue.path ?? []).map((part) => (typeof part === "object" ? part.key : part)), message: issue.message, code: "schema_mismatch" }),
  );
  const { status, text, headers } = answer;
  if (mode === "throw") throw new HubSchemaError({ operation, status, data: value, issues, applied, bodyExcerpt: excerpt(text) });
  // One record per field path, with every rule it broke (a field may break several).
  const rules = new Map<string, string[]>();
  for (const { path, message } of issues) rules.set(fieldPath(path), [...(rules.get(fieldPath(path)) ?? []), message]);
  for (const [path, broken] of rules) {
    log("warn", "schema-mismatch", () => ({ operation, path, rule: broken.join("; "), status, requestId: headers.get("x-request-id") ?? undefined }));
  }
  return value as T;
}
