import { HttpResponse } from "msw";
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
  429: "Too Many Requests",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** One bad field of a request: its name (e.g. `amount`) and why. */
export interface FieldError {
  field: string;
  detail: string;
}

/**
 * An error answer in the configured format; `fields` name the bad fields where the format has a
 * place for them, `problems` is the base of `"problem+json"` types.
 */
export function errorResponse(format: MockErrorFormat, status: number, code: string, message: string, fields: FieldError[] = [], problems = "https://hub.example.com/problems"): Response {
  const title = TITLES[status] ?? "Error";
  switch (format) {
    case "problem+json":
      return HttpResponse.json(
        { type: `${problems}/${code.replace(/_/g, "-")}`, title, status, detail: message, ...(fields.length > 0 && { errors: fields.map(({ field, detail }) => ({ pointer: `#/${field}`, detail })) }) },
        { status, headers: { "content-type": "application/problem+json" } },
      );
    case "error-object":
      return HttpResponse.json({ error: { type: status === 429 ? "rate_limit_error" : status === 401 || status === 403 ? "authentication_error" : "invalid_request_error", code, message, ...(fields[0] && { param: fields[0].field }) } }, { status });
    case "errors-array":
      return HttpResponse.json({ errors: fields.length > 0 ? fields.map(({ field, detail }) => ({ code, detail, source: { pointer: `/${field}` } })) : [{ code, detail: message }] }, { status });
    case "nested":
      return HttpResponse.json({ error: { code, message } }, { status });
    case "flat":
      return HttpResponse.json({ code, message }, { status });
    case "error-string":
      return HttpResponse.json({ error: code, message }, { status });
    case "problem":
      return HttpResponse.json(
        { type: "about:blank", title, status, detail: message },
        { status, headers: { "content-type": "application/problem+json" } },
      );
    case "text":
      return HttpResponse.text(message, { status });
    case "html":
      return HttpResponse.html(`<!doctype html><html><body><h1>${status} ${title}</h1><p>${message}</p></body></html>`, { status });
  }
}

/** An HTML page like the one a proxy sends when the upstream is down. */
export const proxyPage = (status: number) =>
  `<html>\r\n<head><title>${status} ${TITLES[status] ?? "Error"}</title></head>\r\n<body>\r\n<center><h1>${status} ${TITLES[status] ?? "Error"}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;

/** The rate-limit fields of one answer: `used` requests of `limit` in a window ending at `resetAt` (ms). */
export function rateLimitHeaders(style: MockRateLimitHeaders, limit: number, used: number, resetAt: number, now: number): Record<string, string> {
  const remaining = String(Math.max(0, limit - used));
  const seconds = String(Math.max(1, Math.ceil((resetAt - now) / 1000)));
  switch (style) {
    case "none":
      return {};
    case "ietf":
      return { "RateLimit-Policy": `"default";q=${limit};w=1`, RateLimit: `"default";r=${remaining};t=${seconds}` };
    case "ietf-legacy":
      return { "RateLimit-Limit": String(limit), "RateLimit-Remaining": remaining, "RateLimit-Reset": seconds };
    case "x-ratelimit":
      return { "X-RateLimit-Limit": String(limit), "X-RateLimit-Remaining": remaining, "X-RateLimit-Reset": String(Math.ceil(resetAt / 1000)) };
  }
}
