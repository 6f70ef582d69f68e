import type { HubErrorFormat } from "public-hub-sdk";

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The shape of one error body (parsed JSON, or the text when it was not JSON), as a
 * `HubErrorFormat` names it; `undefined` for a body of no known shape. Read from keys, never from
 * what the text says.
 */
export function errorFormat(body: unknown): HubErrorFormat | undefined {
  if (typeof body === "string") return body.trim() === "" ? undefined : /^\s*<|<html|<body/i.test(body) ? "html" : "text";
  if (!isObject(body)) return undefined;
  const { error, errors, detail, type } = body;
  // NestJS and Fastify both send `statusCode`; only Fastify's adds a `code` (FST_…).
  if (typeof body.statusCode === "number") return "code" in body ? "fastify" : "nestjs";
  // RFC 9457: a type per error (or a list of bad fields) is the `problem+json` dialect.
  const problem = ["title", "detail", "status"].filter((key) => key in body).length >= (typeof type === "string" ? 1 : 2);
  if (problem) return (typeof type === "string" && type !== "about:blank") || Array.isArray(errors) ? "problem+json" : "problem";
  if (Array.isArray(errors) && errors.length > 0 && errors.every(isObject)) return errors.some((item) => isObject(item.extensions) || ("message" in item && !("detail" in item))) ? "graphql" : "errors-array";
  if (typeof detail === "string" || Array.isArray(detail)) return "fastapi";
  // `{ error: { code, message } }`; zod-validator's `{ error: { name: "ZodError", message } }` is no format the mock writes.
  if (isObject(error)) return "type" in error ? "error-object" : "code" in error ? "nested" : undefined;
  if (typeof error === "string") return "error-string";
  return "code" in body ? "flat" : undefined;
}

/**
 * The hub's error format from several of its error bodies: a JSON shape before a text or HTML one
 * (a proxy's or a router's page is not the API's own), the first given first; a NestJS-shaped body
 * is Fastify's when another carries Fastify's `code`, a plain problem is `problem+json` when
 * another has a type of its own.
 */
export function errorFormatOf(bodies: unknown[]): HubErrorFormat | undefined {
  const formats = bodies.map(errorFormat).filter((format) => format !== undefined);
  const pick = formats.find((format) => format !== "text" && format !== "html") ?? formats[0];
  if (pick === "nestjs" && formats.includes("fastify")) return "fastify";
  if (pick === "problem" && formats.includes("problem+json")) return "problem+json";
  return pick;
}
