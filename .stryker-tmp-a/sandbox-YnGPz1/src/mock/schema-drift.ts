// @ts-nocheck
import type { HubOperation, HubSchemas } from "../core/types/schemas";

/**
 * Why a body the mock is about to serve does not fit the app's declared schema for its operation,
 * or `undefined` when it fits (or no schema is declared). The mock's own code, like its signature
 * check: it shares nothing with the client it tests but the Standard Schema interface.
 */
export async function schemaDrift(schemas: HubSchemas, operation: HubOperation, body: unknown): Promise<string | undefined> {
  const schema = schemas[operation];
  if (!schema) return undefined;
  const result = await schema["~standard"].validate(body);
  if (!result.issues) return undefined;
  const fields = result.issues
    .map((issue) => `${(issue.path ?? []).map((part) => String(typeof part === "object" ? part.key : part)).join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
  return `public-hub-sdk/mock: the ${operation} body it serves does not fit schemas.${operation} (${fields}): the mock's data and the declared shapes have drifted apart`;
}
