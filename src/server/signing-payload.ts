/**
 * The string a write signature covers (spec part 5): timestamp, upper-case method, the path as
 * sent (with `/api/v1` and the same percent-encoding), and the exact body, joined by `.`.
 */
export function signingPayload(parts: { timestamp: string; method: string; path: string; body: string }): string {
  return `${parts.timestamp}.${parts.method.toUpperCase()}.${parts.path}.${parts.body}`;
}
