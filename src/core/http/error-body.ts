/**
 * Finding `code` and `message` in an error body of unknown shape. The spec does not show the
 * error body, so this accepts the shapes servers commonly use:
 * `{ code, message }`, `{ error: { code, message } }`, `{ error: "text" }`,
 * RFC 9457 problem details `{ type, title, detail }`, `{ errors: [{ code, message }] }`.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

// RFC 9457's default problem type names no particular error, so it is no code.
const firstString = (...values: unknown[]): string | undefined =>
  values.find((value): value is string => typeof value === "string" && value.trim() !== "" && value !== "about:blank");

/** The object that describes the error: the body itself or its `error` / first `errors` entry. */
function describingObjects(body: Json): Json[] {
  const firstOfErrors: unknown = Array.isArray(body.errors) ? body.errors[0] : undefined;
  return [body.error, firstOfErrors, body].filter(isObject);
}

export function extractErrorFields(body: unknown): { code?: string | undefined; message?: string | undefined } {
  if (!isObject(body)) return {};
  const objects = describingObjects(body);
  const message = firstString(
    ...objects.flatMap((o) => [o.message, o.detail, o.error_description, o.title]),
    body.error, // `{ error: "text" }` (firstString takes strings only)
  );
  const code = firstString(
    ...objects.flatMap((o) => [o.code, o.error_code, o.type]),
    // `{ error: "invalid_signature" }` is a code when it looks like one, else it was the message.
    /^[\w.-]+$/.test(String(body.error)) ? body.error : undefined,
  );
  const numericCode = objects.map((o) => o.code).find((c) => typeof c === "number");
  return { code: code ?? (numericCode === undefined ? undefined : String(numericCode)), message };
}
