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
  const objects: Json[] = [];
  if (isObject(body.error)) objects.push(body.error);
  if (Array.isArray(body.errors) && isObject(body.errors[0])) objects.push(body.errors[0]);
  objects.push(body);
  return objects;
}

export function extractErrorFields(body: unknown): { code?: string | undefined; message?: string | undefined } {
  if (!isObject(body)) return {};
  const objects = describingObjects(body);
  const message = firstString(
    ...objects.flatMap((o) => [o.message, o.detail, o.error_description, o.title]),
    typeof body.error === "string" ? body.error : undefined,
  );
  const code = firstString(
    ...objects.flatMap((o) => [o.code, o.error_code, o.type]),
    // `{ error: "invalid_signature" }` is a code when it looks like one, else it was the message.
    typeof body.error === "string" && /^[\w.-]+$/.test(body.error) ? body.error : undefined,
  );
  const numericCode = objects.map((o) => o.code).find((c) => typeof c === "number");
  return { code: code ?? (numericCode === undefined ? undefined : String(numericCode)), message };
}
