/**
 * Reading what a server sent, without ever throwing on it: odd bodies (an HTML 502 page, an empty
 * 200, text that is not JSON) become typed errors or kept data, never a crash or a lost field.
 */
import { HubResponseError, type ResponseProblem } from "../errors/hub-response-error";

/** Which JSON a call accepts: an object; an object or array (lists); or an object or nothing (writes). */
export type BodyKind = "object" | "object-or-array" | "object-or-empty";

// A text body kept on an error: enough to read a proxy's page, never a whole 10 MB answer.
const KEPT_LENGTH = 4_096;

/** A single-line excerpt of at most 200 characters, for messages and logs. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The text body an error keeps: at most 4 KB, marked when cut. */
export function keptBody(text: string): string {
  return text.length > KEPT_LENGTH ? `${text.slice(0, KEPT_LENGTH)}… (${text.length} characters in all)` : text;
}

/** JSON when the text is JSON, whatever the content-type says; `undefined` otherwise. */
export function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: undefined.
  }
}

/** Response headers as a plain object with lower-case names (Headers is not serializable). */
export function headersToObject(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers);
}

/**
 * The whole body as text, or the attempt's signal's reason as soon as it aborts: a `fetch` option
 * that does not end a body on abort (a test double, a polyfill) cannot hold an attempt past its
 * timeout. (undici ends its own bodies on abort.)
 */
export function readText(response: Response, signal: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    response.text().then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/**
 * Seconds until a retry is allowed, from a `Retry-After` value: delta-seconds (`"120"`) or an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = parseHttpDate(trimmed);
  return date === undefined ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * No server's clock reads earlier than this (the start of 2024, the threshold ky uses too): a
 * `Date` before it is junk (epoch 0, a zeroed RTC), not a clock.
 */
const EARLIEST_PLAUSIBLE_DATE = Date.UTC(2024, 0, 1);

/**
 * Epoch milliseconds of an HTTP date (`Date`, `Retry-After`), or undefined when absent, unreadable
 * or implausible. A date names its month (HTTP dates) or has a "T" (ISO 8601): without a letter,
 * `Date.parse` would read junk such as "0", "-3" or "1." as a date (year 2000, 2001…).
 */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  const date = typeof value === "string" && /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return date >= EARLIEST_PLAUSIBLE_DATE ? date : undefined;
}

/**
 * An answer's `Retry-After` as the client honours it, the one place `maxRetryAfter` is enforced:
 * `seconds` as sent (undefined when absent or unreadable), and `waitMs`, the wait the client
 * takes: undefined for none, `Infinity` for one longer than `maxRetryAfter` (the call then fails
 * at once, and the rate gate pauses nothing for it). ky parses and waits it itself.
 */
export function retryAfterOf(headers: Headers, maxRetryAfter: number): { seconds: number | undefined; waitMs: number | undefined } {
  const seconds = parseRetryAfter(headers.get("retry-after"));
  return { seconds, waitMs: seconds === undefined ? undefined : seconds * 1000 > maxRetryAfter ? Infinity : seconds * 1000 };
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
// RFC 9457's default problem type names no particular error, so it is no code.
const firstString = (...values: unknown[]) =>
  values.find((value): value is string => typeof value === "string" && value.trim() !== "" && value !== "about:blank");

/**
 * `code` and `message` of an error body of unknown shape (the spec does not show it): `{ code,
 * message }`, `{ error: { code, message } }`, `{ error: "text" }`, RFC 9457 problem details
 * `{ type, title, detail }`, `{ errors: [{ code, message }] }`, OAuth's `{ error,
 * error_description }`. What a `HubApiError` carries, for an answer the SDK did not fetch.
 * @example
 * ```ts
 * const response = await fetch(url, init); // a hand-made request
 * if (!response.ok) console.log(errorFields(await response.json().catch(() => undefined)).code); // "invalid_signature"
 * ```
 */
export function errorFields(body: unknown): {
  /** The machine-readable code (`code`, `error.code`, a problem's `type`…), when there is one. */
  code?: string | undefined;
  /** The human-readable message (`message`, `detail`, `error_description`, `title`…), when there is one. */
  message?: string | undefined;
} {
  if (!isObject(body)) return {};
  const objects = [body.error, Array.isArray(body.errors) ? body.errors[0] : undefined, body].filter(isObject);
  const message = firstString(...objects.flatMap((o) => [o.message, o.detail, o.error_description, o.title]), body.error);
  // `{ error: "invalid_signature" }` is a code when it looks like one, else it was the message.
  const code = firstString(...objects.flatMap((o) => [o.code, o.error_code, o.type]), /^[\w.-]+$/.test(String(body.error)) ? body.error : undefined);
  const numeric = objects.map((o) => o.code).find((c) => typeof c === "number");
  return { code: code ?? (numeric === undefined ? undefined : String(numeric)), message };
}

/** A 2xx answer whose body was read as text. */
export interface TextResponse {
  status: number;
  headers: Headers;
  text: string;
  /** A write's answer: it was applied, so an unusable body's error says it may have been (the server client adds the note). */
  mayHaveBeenApplied?: boolean | undefined;
}

function fail(answer: TextResponse, problem: ResponseProblem, detail: string, body: unknown = keptBody(answer.text), issues: HubResponseError["issues"] = []) {
  return new HubResponseError({ status: answer.status, problem, detail, body, bodyExcerpt: excerpt(answer.text), issues, mayHaveBeenApplied: answer.mayHaveBeenApplied });
}

/**
 * The body of a 2xx answer as JSON, every field kept (its schema is checked by `checkBody`).
 * An empty write answer (204) is `{}`: the server accepted the award and had nothing to add.
 */
export async function decodeBody(answer: TextResponse, kind: BodyKind): Promise<unknown> {
  let value: unknown = {};
  if (answer.text.trim() !== "" || kind !== "object-or-empty") {
    if (answer.text.trim() === "") throw fail(answer, "empty-body", "the server sent no body");
    const parsed = parseJson(answer.text);
    if (!parsed) throw fail(answer, "invalid-json", `expected JSON, got ${answer.headers.get("content-type") ?? "no content-type"}: ${excerpt(answer.text)}`);
    value = parsed.value;
    if (!isObject(value) && !(kind === "object-or-array" && Array.isArray(value))) {
      throw fail(answer, "unexpected-shape", `expected ${kind === "object-or-array" ? "a JSON object or array" : "a JSON object"}: ${excerpt(answer.text)}`, value);
    }
  }
  return value;
}
