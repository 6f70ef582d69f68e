import { parseHttpDate } from "../core/answer";

/**
 * How far a signed write's `x-api-timestamp` may be from the server's time, in seconds, either way
 * (spec, part 5). The mock keeps its own copy on purpose: it checks the SDK with its own code.
 * @example
 * ```ts
 * if (Math.abs(offsetMs) > SIGNATURE_WINDOW_SECONDS * 1000) console.warn("signatures would be refused without the clock correction");
 * ```
 */
export const SIGNATURE_WINDOW_SECONDS = 300;

/**
 * The offset of the server's clock from this machine's, in milliseconds, from an answer's `Date`:
 * the one measurement of clock skew (the server client signs with it, the CLI's `doctor` reports
 * it). `undefined` when the answer tells nothing: a cached copy (any `Age` header, RFC 9111,
 * carries the `Date` of when it was stored, hours old perhaps), or no readable, plausible `Date`
 * (`parseHttpDate`: a `0` or a date of 1970 is no time).
 * @example
 * ```ts
 * const response = await fetch(`${baseUrl}/hub/alpha`, { headers: { "x-api-key": clientId } });
 * const offsetMs = clockOffsetOf(response.headers); // e.g. 2_500: the server is 2.5 s ahead
 * ```
 */
export function clockOffsetOf(headers: Headers, now = Date.now()): number | undefined {
  if (headers.has("age")) return undefined;
  const serverMs = parseHttpDate(headers.get("date"));
  // Date has whole seconds: the server's time was within [date, date + 1 s), so take the middle.
  return serverMs === undefined ? undefined : serverMs + 500 - now;
}
