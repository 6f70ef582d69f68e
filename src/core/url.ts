import { HubValidationError } from "./errors/hub-validation-error";

const API_PREFIX = "/api/v1";

/**
 * The API base address as a URL without a trailing slash. A bare origin gets `/api/v1`; any
 * other path is kept as given (a proxy may mount the API elsewhere). No default host exists.
 */
export function normalizeBaseUrl(baseUrl: unknown): URL {
  const fail = (message: string): never => {
    throw new HubValidationError({ what: "client options", issues: [{ path: ["baseUrl"], code: "invalid_url", message }] });
  };
  if (typeof baseUrl !== "string" || baseUrl.trim() === "") {
    return fail('is required: the API base address, e.g. "https://hub.example.com/api/v1"');
  }
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    return fail(`"${baseUrl}" is not an absolute URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") fail(`"${baseUrl}" must use http or https`);
  if (url.search !== "" || url.hash !== "") fail(`"${baseUrl}" must not carry a query or fragment`);
  if (url.username !== "" || url.password !== "") fail(`"${url.host}" must not carry credentials`);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path === "" ? API_PREFIX : path;
  return url;
}

/**
 * The one way the SDK builds request paths: every segment is percent-encoded, so a slug or wallet
 * holding `/`, `?`, `#`, spaces or non-ASCII text stays exactly one path segment. The result is
 * relative to the client's base address (ky's `prefixUrl`).
 *
 * @example
 * ```ts
 * pathOf(["hub", "café", "holder", "a/b"]); // "hub/caf%C3%A9/holder/a%2Fb"
 * ```
 */
export function pathOf(segments: readonly string[]): string {
  return segments.map((segment) => encodeURIComponent(segment)).join("/");
}
