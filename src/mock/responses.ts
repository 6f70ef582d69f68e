import { HttpResponse, type JsonBodyType } from "msw";
import type { HubProfile, HubSignal } from "../core/types/profile";
import type { MockErrorFormat, MockRateLimitHeaders } from "./types";

/**
 * The mock's CORS headers, on every answer: reads are made from browsers, so preflights pass and
 * the useful headers are readable. What a server in front of the handlers (the CLI's `mock`)
 * sends on its own answers too.
 */
export const CORS_HEADERS: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "x-api-key, content-type, x-api-timestamp, x-api-signature",
  "access-control-expose-headers": "Date, Age, Retry-After, Location, x-request-id",
  "access-control-max-age": "600",
};

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** One bad field of a request: its name (e.g. `amount`), why, where it was sent and its value. */
export interface FieldError {
  field: string;
  detail: string;
  /** A query parameter; else a body field. */
  in?: "query";
  input?: unknown;
}

// A code that is already a URI is a problem type as it is (a profile learned from a problem+json hub declares the type).
const URI = /^[a-z][\w+.-]*:/i;

/**
 * An error answer in the configured format; `fields` name the bad fields where the format has a
 * place for them, `problems` is the base of `"problem+json"` types, `extra` goes at the top of a JSON body.
 */
export function errorResponse(format: MockErrorFormat, status: number, code: string, message: string, fields: FieldError[] = [], problems = "https://hub.example.com/problems", extra: Record<string, unknown> = {}): Response {
  const title = TITLES[status] ?? "Error";
  const json = (body: object, init: { contentType?: string; status?: number } = {}) =>
    HttpResponse.json({ ...body, ...extra } as JsonBodyType, { status: init.status ?? status, ...(init.contentType && { headers: { "content-type": init.contentType } }) });
  const problem = { contentType: "application/problem+json" };
  switch (format) {
    case "problem+json":
      return json(
        { type: URI.test(code) ? code : `${problems}/${code.replace(/_/g, "-")}`, title, status, detail: message, ...(fields.length > 0 && { errors: fields.map(({ field, detail }) => ({ pointer: `#/${field}`, detail })) }) },
        problem,
      );
    case "error-object":
      return json({ error: { type: status === 429 ? "rate_limit_error" : status === 401 || status === 403 ? "authentication_error" : "invalid_request_error", code, message, ...(fields[0] && { param: fields[0].field }) } });
    case "errors-array":
      return json({ errors: fields.length > 0 ? fields.map(({ field, detail }) => ({ code, detail, source: { pointer: `/${field}` } })) : [{ code, detail: message }] });
    case "graphql":
      // Bad fields are said in the message only: the SDK's errorFields reads no field from an entry's `extensions`.
      return json({ errors: [{ message, extensions: { code } }] });
    case "nestjs":
      // class-validator's messages, one per field; NestJS has no code.
      return json({ statusCode: status, message: fields.length > 0 ? fields.map(({ field, detail }) => `${field} ${detail}`) : message, error: title });
    case "fastify":
      return json(
        fields.length > 0
          ? { statusCode: status, code: "FST_ERR_VALIDATION", error: title, message: fields.map((f) => `${f.in === "query" ? "querystring" : "body"}/${f.field} ${f.detail}`).join(", ") }
          : { statusCode: status, code, error: title, message },
      );
    case "fastapi":
      // A request that fails its model is a 422, as FastAPI answers it.
      return fields.length > 0
        ? json({ detail: fields.map((f) => ({ type: "value_error", loc: [f.in ?? "body", f.field], msg: f.detail, input: f.input ?? null })) }, { status: 422 })
        : json({ detail: message });
    case "nested":
      return json({ error: { code, message } });
    case "flat":
      return json({ code, message });
    case "error-string":
      return json({ error: code, message });
    case "problem":
      return json({ type: "about:blank", title, status, detail: message }, problem);
    case "text":
      return HttpResponse.text(message, { status });
    case "html":
      // Flask's (Werkzeug's) default error page.
      return HttpResponse.html(`<!doctype html>\n<html lang=en>\n<title>${status} ${title}</title>\n<h1>${title}</h1>\n<p>${message}</p>\n`, { status });
  }
}

/**
 * A refusal as a hub's signal declares it: its status, its code where the format puts codes (beside,
 * at the top, in a format with no place for it: an RFC 9457 extension member, what NestJS and
 * FastAPI apps add), its header and body field. `code` stands in when the signal declares none.
 */
export function signalResponse(format: MockErrorFormat, signal: HubSignal, code: string, message: string, problems: string): Response {
  const declared = signal.code ?? code;
  const beside = signal.code !== undefined && (format === "problem" || format === "nestjs" || format === "fastapi" || (format === "problem+json" && !URI.test(declared)));
  const response = errorResponse(format, signal.status, declared, message, [], problems, { ...(beside && { code: declared }), ...(signal.field && { [signal.field.name]: signal.field.value }) });
  if (signal.header) response.headers.set(signal.header.name, signal.header.value);
  return response;
}

/** An HTML page like the one a proxy sends when the upstream is down. */
export const proxyPage = (status: number) =>
  `<html>\r\n<head><title>${status} ${TITLES[status] ?? "Error"}</title></head>\r\n<body>\r\n<center><h1>${status} ${TITLES[status] ?? "Error"}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/**
 * The rate-limit fields of one answer: `used` requests of `limit` in a window ending at `resetAt`
 * (ms). The reset is announced `resetLagSeconds` late (slowapi's window end + 1 s); the window is not.
 */
export function rateLimitHeaders(style: MockRateLimitHeaders, limit: number, used: number, resetAt: number, now: number, { reset, resetLagSeconds = 0 }: Omit<NonNullable<HubProfile["rateLimit"]>, "headers"> = {}): Record<string, string> {
  const remaining = String(Math.max(0, limit - used));
  const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000)) + resetLagSeconds;
  // GitHub's X-RateLimit-Reset is an epoch time; the IETF fields' are seconds.
  const form = reset ?? (style === "x-ratelimit" ? "epoch-seconds" : "seconds");
  const announced = String(form === "seconds" ? seconds : form === "epoch-seconds" ? Math.ceil(resetAt / 1000) + resetLagSeconds : resetAt + resetLagSeconds * 1000);
  switch (style) {
    case "none":
      return {};
    case "ietf":
      return { "RateLimit-Policy": `"default";q=${limit};w=1`, RateLimit: `"default";r=${remaining};t=${seconds}` };
    case "ietf-draft7":
      return { "RateLimit-Policy": `${limit};w=1`, RateLimit: `limit=${limit}, remaining=${remaining}, reset=${seconds}` };
    case "ietf-legacy":
      return { "RateLimit-Limit": String(limit), "RateLimit-Remaining": remaining, "RateLimit-Reset": announced };
    case "x-ratelimit":
      return { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": announced };
  }
}
