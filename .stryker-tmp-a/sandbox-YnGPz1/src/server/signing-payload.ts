// @ts-nocheck
import { normalizeBaseUrl, pathOf } from "../client/check-input";

/**
 * The string a write signature covers (spec part 5): timestamp, upper-case method, the path as
 * sent (with `/api/v1` and the same percent-encoding), and the exact body, joined by `.`. Pure:
 * a server implementer can build the same string and compare it with a refused write's `signing`.
 * @example
 * ```ts
 * signingPayload({ timestamp: "1700000000", method: "post", path: "/api/v1/hub/alpha/bits/earn", body: "{}" });
 * // "1700000000.POST./api/v1/hub/alpha/bits/earn.{}"
 * ```
 */
export function signingPayload(parts: { timestamp: string; method: string; path: string; body: string }): string {
  return `${parts.timestamp}.${parts.method.toUpperCase()}.${parts.path}.${parts.body}`;
}

/** The path segments of `POST /hub/{slug}/bits/earn`, after the base address. */
export const awardSegments = (hub: string) => ["hub", hub, "bits", "earn"];

/**
 * The path an award to `hub` is sent to and signed with, under `baseUrl` (normalized as the client
 * does: a bare origin gets `/api/v1`), percent-encoded as sent: the `path` of `signRequest` for a
 * hand-made award request.
 * @throws {HubValidationError} for a base URL the client would refuse.
 * @example
 * ```ts
 * awardPath({ baseUrl: "https://hub.example.com", hub: "alpha" }); // "/api/v1/hub/alpha/bits/earn"
 * ```
 */
export function awardPath(options: { baseUrl: string; hub: string }): string {
  return new URL(pathOf(awardSegments(options.hub)), `${normalizeBaseUrl(options.baseUrl).href}/`).pathname;
}
