/**
 * Reading what a server sent, by the standards it follows, without ever throwing on it: the body
 * (JSON whatever the content-type says, an envelope unwrapped), an error body (RFC 9457 problem
 * details and the common shapes), the request id, the rate-limit fields (`Retry-After`, the IETF
 * `RateLimit` fields, `X-RateLimit-*`, in the server's time) and whether an award's answer says "duplicate".
 */
import { apiError, fieldPath, HubResponseError, HubSchemaError, type ValidationIssue } from "./errors";
import type { HubProfile, HubSignal } from "./types/profile";
import type { StandardSchemaV1 } from "./types/standard-schema";

type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** A single-line excerpt of at most 200 characters, for messages and logs. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

// A text body kept on an error: enough to read a proxy's page, never a whole 10 MB answer.
const keptBody = (text: string) => (text.length > 4_096 ? `${text.slice(0, 4_096)}… (${text.length} characters in all)` : text);

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    // Not JSON: undefined.
  }
}

/** No server's clock reads earlier than this: a `Date` before it is junk (epoch 0, a zeroed RTC). */
const EARLIEST_PLAUSIBLE_DATE = Date.UTC(2024, 0, 1);

/**
 * Epoch milliseconds of an HTTP date (`Date`, `Retry-After`), or undefined when absent, unreadable
 * or implausible. A date names its month or has a "T": without a letter, `Date.parse` reads junk
 * such as "0" or "-3" as a date.
 */
export function parseHttpDate(value: string | null | undefined): number | undefined {
  const date = typeof value === "string" && /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return date >= EARLIEST_PLAUSIBLE_DATE ? date : undefined;
}

/**
 * The request id of an answer: `Request-Id`, `X-Request-Id`, else any header whose name ends in
 * `request-id`, `requestid` or `correlation-id` (`x-amzn-requestid`, `x-ms-request-id`,
 * `x-correlation-id`…).
 */
export function requestIdOf(headers: Headers): string | undefined {
  const named = headers.get("request-id") ?? headers.get("x-request-id");
  if (named !== null) return named;
  for (const [name, value] of headers) if (/(request|correlation)-?id$/.test(name)) return value;
  return undefined;
}

/** What an answer says about the hub's limit, each time as local epoch milliseconds. */
export interface RateLimitFields {
  /** When the hub lets the next request in, by its `Retry-After`. */
  retryAt?: number | undefined;
  /** Requests left in the current window. */
  remaining?: number | undefined;
  /** When the current window resets. */
  resetAt?: number | undefined;
}

// One parameter of a structured field item: `r=3` in `"default";r=3;t=1`, or of draft 7's
// dictionary: `remaining=19` in `limit=20, remaining=19, reset=1` (express-rate-limit).
const param = (value: string | null, key: string) => {
  const match = value && new RegExp(`(?:^|[;,])\\s*${key}=(\\d+(?:\\.\\d+)?)`).exec(value);
  return match ? Number(match[1]) : undefined;
};
const number = (value: string | null) => (value !== null && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : undefined);

/** Where a server time falls on the local clock (the client's `ServerClock`). */
export interface Clock {
  localTime(serverMs: number): number;
  /** How long after a window's real end the hub's announced reset lies (the server client's, from its profile). */
  resetLagMs?: number;
}

/**
 * The rate-limit fields of an answer received at `receivedAt`, whichever standard they follow:
 * `Retry-After` (seconds, or an HTTP date); the IETF `RateLimit` (`r`, `t`) structured field, or
 * draft 7's `remaining`/`reset` dictionary; draft 6's `RateLimit-Remaining` / `-Reset`;
 * `X-RateLimit-Remaining` / `-Reset`. A reset is seconds from the answer, or an epoch time in seconds or in milliseconds; a date or an epoch time is the
 * server's, placed on the local clock by `clock`, which also knows how long after the window's end
 * the hub's resets lie (its profile's `resetLagSeconds`). Unreadable values are left out.
 */
export function rateLimitOf(headers: Headers, clock: Clock, receivedAt = Date.now()): RateLimitFields {
  const structured = headers.get("ratelimit");
  const remaining = param(structured, "r") ?? param(structured, "remaining") ?? number(headers.get("ratelimit-remaining")) ?? number(headers.get("x-ratelimit-remaining"));
  const reset = param(structured, "t") ?? param(structured, "reset") ?? number(headers.get("ratelimit-reset")) ?? number(headers.get("x-ratelimit-reset"));
  const resetAt =
    reset === undefined ? undefined
    : reset >= EARLIEST_PLAUSIBLE_DATE ? clock.localTime(reset) // epoch milliseconds
    : reset * 1000 >= EARLIEST_PLAUSIBLE_DATE ? clock.localTime(reset * 1000) // epoch seconds (GitHub's)
    : receivedAt + reset * 1000;
  const retryAfter = headers.get("retry-after");
  const delay = number(retryAfter);
  const date = delay === undefined ? parseHttpDate(retryAfter) : undefined;
  const retryAt = delay !== undefined ? receivedAt + delay * 1000 : date !== undefined ? clock.localTime(date) : undefined;
  return { retryAt, remaining, resetAt: resetAt && resetAt - (clock.resetLagMs ?? 0) };
}

// RFC 9457's default problem type names no particular error, so it is no code.
const text = (value: unknown): value is string => typeof value === "string" && value.trim() !== "" && value !== "about:blank";
const firstText = (...values: unknown[]) => values.find(text);
// `#/amount`, `/amount` or `amount` as a path.
const pathOf = (pointer: unknown): PropertyKey[] => (text(pointer) ? pointer.replace(/^#?\//, "").split(/[/.]/).filter(Boolean) : []);

/**
 * What an error body of unknown shape says: RFC 9457 problem details (`type`, `title`, `detail`,
 * `errors[]` of `pointer`/`detail`, `invalid-params` of `name`/`reason`), `{ error: { code,
 * message, param } }`, `{ errors: [{ code, detail, source: { pointer } }] }`, flat `{ code,
 * message }`, `{ error: "text" }`, OAuth's `{ error, error_description }`, GraphQL's `{ errors:
 * [{ message, extensions: { code } }] }`, and the default bodies of the popular server frameworks
 * (NestJS's `{ statusCode, error, message }` with `message` a text or a list, FastAPI's `{ detail:
 * [{ loc, msg }] }`).
 * @example
 * ```ts
 * const response = await fetch(url, init); // a hand-made request
 * if (!response.ok) console.log(errorFields(await response.json().catch(() => undefined)).code); // "invalid_signature"
 * ```
 */
export function errorFields(body: unknown): {
  /** The machine-readable code (`code`, `error.code`, a problem's `type`…), when there is one. */
  code?: string | undefined;
  /** The human-readable message (`detail`, `message`, `title`…), when there is one. */
  message?: string | undefined;
  /** The fields the body names, with their reasons. */
  issues: ValidationIssue[];
} {
  if (!isObject(body)) return { issues: [] };
  // @hono/zod-validator's `{ success: false, error: { name: "ZodError", message: "<its issues as JSON>" } }`.
  const error = isObject(body.error) ? body.error : undefined;
  const zod = parseJson(String(error?.message))?.value;
  // Django REST framework's (and Rails') `{ "amount": ["…"] }`: nothing but lists of messages, under each field's name.
  const drf = Object.entries(body).map(([name, value]) => Array.isArray(value) && { name, message: value.join(" ") });
  // Stripe's `{ error: { code, message, param } }` names its one field as an entry does.
  const list = [body.errors, body["invalid-params"], body.detail, zod].find(Array.isArray) ?? (text(error?.param) ? [error] : drf.every(Boolean) ? drf : []);
  const items = list.filter(isObject);
  const own = Array.isArray(zod) ? undefined : error;
  const entries = items.map((item): ValidationIssue | undefined => {
    const loc = item.loc ?? item.path;
    const path = pathOf(item.pointer ?? (isObject(item.source) ? item.source.pointer ?? item.source.parameter : undefined) ?? item.name ?? item.field ?? item.param ?? (Array.isArray(loc) ? loc.filter((part) => part !== "body").join("/") : undefined));
    const message = firstText(item.detail, item.reason, item.message, item.msg, item.title);
    // Only an entry that names a field, and says why, is an issue of the request.
    return message === undefined || path.length === 0 ? undefined : { path, message, code: firstText(item.code, item.type) ?? "invalid" };
  });
  const issues = entries.filter((issue) => issue !== undefined);
  // The first entry is the message only when it names no field: an issue is said with the others.
  return { ...codeAndMessage(body, [own, items[0], body], [own, entries[0] ? undefined : items[0], body]), issues };
}

/**
 * The code and message of an error body, from the objects it holds them in (first to last):
 * `objects` for the code, `said` for the message.
 */
function codeAndMessage(body: Record<string, unknown>, objects: unknown[], said: unknown[]): { code?: string | undefined; message?: string | undefined } {
  const codes = objects.filter(isObject);
  // NestJS lists a validation's messages in `message`.
  const listed = Array.isArray(body.message) ? body.message.filter(text).join("; ") : undefined;
  // A problem's `detail` explains this occurrence; its `title` names the type: the detail comes first.
  const message = firstText(body.detail, listed, ...said.filter(isObject).flatMap((o) => [o.message, o.detail, o.error_description, o.title, o.msg]), body.error);
  // `{ error: "invalid_signature" }` is a code when it looks like one, else it was the message;
  // beside a `statusCode` (NestJS, Fastify) it is the status's phrase ("Conflict"): no code.
  const code = firstText(...codes.flatMap((o) => [o.code, o.error_code, o.type, isObject(o.extensions) ? o.extensions.code : undefined]), body.statusCode === undefined && /^[\w.-]+$/.test(String(body.error)) && body.error);
  const numeric = codes.map((o) => o.code).find((c) => typeof c === "number");
  return { code: code ?? (numeric === undefined ? undefined : String(numeric)), message };
}

/**
 * What a read's error body says, without its field issues: the code and the message, read as
 * {@link errorFields} reads them when the body names no field (the browser client's reader: its
 * reads send no body, so no field of the caller's to name; the server client reads the issues).
 */
export function errorSummary(body: unknown): { code?: string | undefined; message?: string | undefined; issues?: ValidationIssue[] } {
  if (!isObject(body)) return {};
  const objects = [body.error, Array.isArray(body.errors) ? body.errors[0] : undefined, body];
  return codeAndMessage(body, objects, objects);
}

/** The error a non-2xx answer becomes, its body read by `read`; `note` ends its message (the attempts, the verdict). */
export function readError(response: Response, text: string, note: string, mayHaveBeenApplied: boolean, retryAfterMs: number | undefined, read: typeof errorSummary) {
  const parsed = parseJson(text);
  const body = parsed ? parsed.value : keptBody(text);
  const { code, message, issues = [] } = read(body);
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const fields = issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join("; ");
  // An HTML page (a proxy's, a framework's default) is named by its title, never pasted.
  const title = !parsed && /<title>([^<]*)/i.exec(text)?.[1];
  const page = title && `HTML page "${title.trim()}"`;
  // Issues alone (FastAPI's 422) are the message; else they follow it.
  const said = message === undefined && fields ? fields : `${message ?? (page || excerpt(text) || "(empty body)")}${fields && ` (${fields})`}`;
  const headers = Object.fromEntries(response.headers);
  return apiError({
    status: response.status,
    code,
    detail: message,
    issues,
    message: `${statusLine}${code ? ` [${code}]` : ""}: ${said}${note}`,
    body,
    headers,
    requestId: requestIdOf(response.headers),
    retryAfterMs,
    mayHaveBeenApplied,
  });
}

/** What {@link awardOutcome} and the `duplicate` option read: one answer to an award, its body parsed (or its text). */
export interface AwardAnswer {
  /** The HTTP status of the answer. */
  status: number;
  /** Its headers. */
  headers: Headers;
  /** Its body, parsed JSON when it was JSON, else its text. */
  body: unknown;
}

/**
 * How an award ended, by the spec's rule (the points of an award are given once per `ref`):
 * `"applied"` now; `"duplicate"`: the hub already had the `ref` and credited nothing more;
 * `"conflict"`: the `ref` is used by another award, nothing credited; `"refused"`: nothing
 * credited; `"unknown"`: the hub failed (a 5xx, a 408), and may have applied it.
 */
export type AwardOutcome = "applied" | "duplicate" | "conflict" | "refused" | "unknown";

/** What else {@link awardOutcome} reads, besides the answer. */
export interface AwardOutcomeContext {
  /** The award as sent: its values are taken out of the hub's words before they are read (a message may quote the request's own `ref`, wallet or reason). */
  award?: object | undefined;
  /** The hub's profile's `award` signals (`doctor --profile`): a declared signal decides over words. */
  profile?: HubProfile["award"] | undefined;
  /** What the caller's own rule said (the server client's `duplicate` option): `true` a duplicate, `false` not one. */
  duplicate?: boolean | undefined;
}

// "The ref is already used", in a hub's words or codes: a unique index's message (Django's "already
// exists", Rails' "has already been taken", SQLite's "UNIQUE constraint failed"), a code, a status field.
// "unique" alone is no such word: "wallet must be unique" says nothing of the ref.
const NAMES_DUPLICATE = /duplicate|already[\s_-]*(been[\s_-]*)?(exists?|used|taken|credited|applied|processed|awarded|claimed|recorded|seen)|replay|unique constraint/i;
// A `ref` that went with another award or other parameters: a conflict, never "already done".
// Words end at any non-letter: codes join them with `_` or `-`, which \b would not split.
const NAMES_CONFLICT = /(^|[^a-z])(another|other|different)([^a-z]|$)|differ|mismatch|not match/i;

/** Whether an answer is the one a profile's signal declares: its status, and each of its code, header and body field that the signal names. */
export function answerSignals(signal: HubSignal, { status, headers, body }: AwardAnswer): boolean {
  if (status !== signal.status) return false;
  if (signal.code !== undefined && errorFields(body).code !== signal.code) return false;
  if (signal.header && headers.get(signal.header.name)?.trim().toLowerCase() !== signal.header.value.toLowerCase()) return false;
  const field = signal.field;
  // At the top, or one envelope deep (`{ data: { duplicate: true } }`).
  return !field || (isObject(body) && [body, ...Object.values(body).filter(isObject)].some((holder) => holder[field.name] === field.value));
}

/**
 * The outcome of an award's answer: the one rule (docs/your-hub.md has its table of real answers).
 * It reads what the hub declares — its status, a code, a header, a body flag, the field an issue
 * names — and its own words once the award's values are taken out of them, never the request's:
 * - a 2xx is applied, or a duplicate when it flags one: `208`, `Idempotent-Replayed: true`, a
 *   `duplicate`/`replayed` flag or a `status` such as `already_processed` (also one envelope deep);
 * - a refusal (400, 409, 422) that says the `ref` is already used — a code, or its own words
 *   ("already exists", "already been taken", "duplicate", "unique constraint"), an issue on `ref` — is a
 *   duplicate, unless it says another award or different parameters, which is a conflict;
 * - an answer whose issues name any field but `ref` is refused, whatever a profile or rule says;
 * - a profile's declared signals decide over words (a declared duplicate signal, both ways).
 * @example
 * ```ts
 * awardOutcome({ status: 400, headers: new Headers(), body: { ref: ["award with this ref already exists."] } }, { award }); // "duplicate"
 * ```
 */
export function awardOutcome(answer: AwardAnswer, { award, profile, duplicate }: AwardOutcomeContext = {}): AwardOutcome {
  const { status, headers, body } = answer;
  const declared = profile?.duplicate;
  // A declared signal decides both ways; "indistinguishable" (a repeat answered as a fresh award) says nothing.
  const said = duplicate ?? (typeof declared === "object" ? answerSignals(declared, answer) : undefined);
  if (status >= 200 && status < 300) {
    if (said !== undefined || declared) return said ? "duplicate" : "applied";
    if (status === 208 || /^\s*true\s*$/i.test(headers.get("idempotent-replayed") ?? "")) return "duplicate";
    const flags = (value: unknown) =>
      isObject(value) && ([value.duplicate, value.replayed, value.idempotent_replayed, value.idempotentReplayed].some((flag) => flag === true) || (text(value.status) && NAMES_DUPLICATE.test(value.status)));
    return flags(body) || (isObject(body) && (flags(body.data) || flags(body.meta))) ? "duplicate" : "applied";
  }
  if (status >= 500 || status === 408) return "unknown";
  const { code, message, issues } = errorFields(body);
  if (issues.some((issue) => issue.path.at(-1) !== "ref")) return "refused";
  const conflict = profile?.conflict;
  if (typeof conflict === "object" && answerSignals(conflict, answer)) return "conflict";
  const refused = status === 409 ? "conflict" : "refused";
  if (said !== undefined) return said ? "duplicate" : refused;
  if (status !== 400 && status !== 409 && status !== 422) return refused;
  // The hub's own words: its code, a problem's title, its message and issues, or its text (a page's, without tags),
  // less every word of the award's own values (a message may quote its ref, wallet or reason).
  const tokens = (value: unknown) => String(value).toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const quoted = new Set(Object.values(award ?? {}).flatMap(tokens));
  const hub = [code, isObject(body) && body.title, message, ...issues.map((issue) => issue.message), typeof body === "string" && body.replace(/<[^>]*>/g, " ")];
  const words = hub.filter(text).flatMap(tokens).filter((word) => !quoted.has(word)).join(" ");
  return NAMES_CONFLICT.test(words) ? "conflict" : NAMES_DUPLICATE.test(words) ? "duplicate" : refused;
}

/** Which body a call accepts: a JSON object; an object or array (lists); or anything (a write: its 2xx was applied, whatever it says). */
export type BodyKind = "object" | "object-or-array" | "write";

/** A 2xx answer's body, read as text within its attempt. */
export interface TextAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** A write's answer: it was applied, so an unusable body's error says it may have been. */
  applied: boolean;
}

/**
 * The body of a 2xx answer as JSON, every field kept. A write's 2xx was applied whatever its body
 * says: empty (204) is `{}`, JSON is its value of any shape (`true`, `[]`), other text is the text.
 */
export function decodeBody(answer: TextAnswer, kind: BodyKind): unknown {
  const fail = (problem: "empty-body" | "invalid-json" | "unexpected-shape", detail: string, body: unknown = keptBody(answer.text)) =>
    new HubResponseError({ status: answer.status, problem, detail, body, bodyExcerpt: excerpt(answer.text), mayHaveBeenApplied: answer.applied });
  if (answer.text.trim() === "") {
    if (kind === "write") return {};
    throw fail("empty-body", "the server sent no body");
  }
  const parsed = parseJson(answer.text);
  if (kind === "write") return parsed ? parsed.value : answer.text;
  if (!parsed) throw fail("invalid-json", `expected JSON, got ${answer.headers.get("content-type") ?? "no content-type"}: ${excerpt(answer.text)}`);
  const { value } = parsed;
  if (!isObject(value) && !(kind === "object-or-array" && Array.isArray(value))) {
    throw fail("unexpected-shape", `expected ${kind === "object-or-array" ? "a JSON object or array" : "a JSON object"}: ${excerpt(answer.text)}`, value);
  }
  return value;
}

/** The payload under an envelope's key (`unwrap`), or the body as it is when it has no such key. */
export function unwrapBody(body: unknown, key: string | undefined): unknown {
  // Its own key only: `__proto__` is in every object.
  return key !== undefined && isObject(body) && Object.hasOwn(body, key) ? body[key] : body;
}

/** What a body is checked against, and what to do when it does not fit. */
export interface BodyCheck {
  /** The operation, or for a subclass's own call without one, its method and path. */
  operation: string;
  schema: StandardSchemaV1;
  mode: "throw" | "warn";
  answer: TextAnswer;
  /** Called once per field path under `"warn"`. */
  warn: (fields: Record<string, unknown>) => void;
}

/**
 * The body as the call returns it when it is checked (a schema, and `validate` not `"off"`): the
 * schema's output when it fits. A misfit throws `HubSchemaError` (`"throw"`) or, with
 * `"warn"`, is returned as sent after one `warn` per field path.
 */
export async function checkBody<T>(value: unknown, { operation, schema, mode, answer, warn }: BodyCheck): Promise<T> {
  const result = await schema["~standard"].validate(value);
  if (!result.issues) return result.value as T;
  const issues = result.issues.map((issue): ValidationIssue => ({ path: (issue.path ?? []).map((part) => (typeof part === "object" ? part.key : part)), message: issue.message, code: "schema_mismatch" }));
  if (mode === "throw") throw new HubSchemaError({ operation, status: answer.status, data: value, issues, applied: answer.applied, bodyExcerpt: excerpt(answer.text) });
  // One record per field path, with every rule it broke.
  const rules = new Map<string, string[]>();
  for (const { path, message } of issues) rules.set(fieldPath(path), [...(rules.get(fieldPath(path)) ?? []), message]);
  for (const [path, broken] of rules) warn({ operation, path, rule: broken.join("; "), status: answer.status, requestId: requestIdOf(answer.headers) });
  return value as T;
}
