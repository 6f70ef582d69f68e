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
