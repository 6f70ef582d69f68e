import { HttpResponse } from "msw";
import type { MockErrorFormat } from "./types";

/**
 * The mock's CORS headers, on every answer: reads are made from browsers, so preflights pass and
 * the useful headers are readable. What a server in front of the handlers (the CLI's `mock`)
 * sends on its own answers too.
 * @example
 * ```ts
 * res.writeHead(404, { "content-type": "application/json", ...CORS_HEADERS });
 * ```
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
  429: "Too Many Requests",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

/** An error answer in the configured format. */
export function errorResponse(format: MockErrorFormat, status: number, code: string, message: string): Response {
  const title = TITLES[status] ?? "Error";
  switch (format) {
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
