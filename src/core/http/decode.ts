import { HubResponseError, type ResponseProblem } from "../errors/hub-response-error";
import type { ValidationIssue } from "../errors/hub-validation-error";
import type { StandardSchemaV1 } from "../types/standard-schema";
import { excerpt, keptBody, parseJson } from "./body";
import type { RawResponse } from "./transport";

/**
 * Which JSON a call accepts: an object; an object or array (lists); or an object or nothing (writes).
 * @example
 * ```ts
 * const kind: BodyKind = "object-or-array"; // what getLeaderboard accepts
 * ```
 */
export type BodyKind = "object" | "object-or-array" | "object-or-empty";

const isPlainObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);

function accepts(kind: BodyKind, value: unknown): boolean {
  return isPlainObject(value) || (kind === "object-or-array" && Array.isArray(value));
}

function fail(response: RawResponse, problem: ResponseProblem, detail: string, body: unknown = keptBody(response.text), issues: ValidationIssue[] = []) {
  return new HubResponseError({ status: response.status, problem, detail, body, bodyExcerpt: excerpt(response.text), issues });
}

/**
 * The body of a 2xx answer as JSON, every field kept. An empty write answer (204) is `{}`: the
 * server accepted the award and had nothing to add. Anything else unusable is a HubResponseError.
 */
export async function decodeBody<T>(response: RawResponse, kind: BodyKind, schema?: StandardSchemaV1<unknown, T>): Promise<T> {
  if (response.text.trim() === "") {
    if (kind === "object-or-empty") return validateWith({}, response, schema);
    throw fail(response, "empty-body", "the server sent no body");
  }
  const parsed = parseJson(response.text);
  if (!parsed.ok) {
    const type = response.headers.get("content-type") ?? "no content-type";
    throw fail(response, "invalid-json", `expected JSON, got ${type}: ${excerpt(response.text)}`);
  }
  if (!accepts(kind, parsed.value)) {
    const what = kind === "object-or-array" ? "a JSON object or array" : "a JSON object";
    throw fail(response, "unexpected-shape", `expected ${what}: ${excerpt(response.text)}`, parsed.value);
  }
  return validateWith(parsed.value, response, schema);
}

async function validateWith<T>(value: unknown, response: RawResponse, schema?: StandardSchemaV1<unknown, T>): Promise<T> {
  if (!schema) return value as T;
  const result = await schema["~standard"].validate(value);
  if (result.issues === undefined) return result.value;
  const issues = result.issues.map((issue) => ({
    path: (issue.path ?? []).map((part) => (typeof part === "object" ? part.key : part)),
    message: issue.message,
    code: "schema_mismatch",
  }));
  const detail = issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`).join("; ");
  throw fail(response, "schema-mismatch", `the body does not match the schema: ${detail}`, value, issues);
}
