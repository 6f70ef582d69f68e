import { parseHttpDate } from "../core/answer";

/**
 * How far a signed write's `x-api-timestamp` may be from the server's time, in seconds, either way
 * (spec, part 5). The mock keeps its own copy on purpose: it checks the SDK with its own code.
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

/**
 * The server's clock as its answers' `Date` bound it: each fresh answer says the server's time was
 * within its whole second while the request was out, so the offset lies in an interval, and the
 * intersection of the intervals narrows with every answer (a new one that disagrees starts over:
 * a clock was set). Signatures use the middle; waits for a server time use its earliest estimate,
 * so no wait ends before the server's time has come.
 */
export class ServerClock {
  // NaN until the first `Date`: no interval meets it, and the offset reads 0.
  #low = Number.NaN;
  #high = Number.NaN;
  /** How long after a window's real end the hub's announced reset lies: its profile's `resetLagSeconds` (slowapi's is 1 s). */
  resetLagMs = 0;
  /** Whether any answer came from the hub at all (a hub of https:// that never answered may serve plain HTTP). */
  heard = false;

  /** Milliseconds to add to the local clock to get server time (0 before any `Date`). */
  get offsetMs(): number {
    return (this.#low + this.#high) / 2 || 0;
  }

  /** The local time (epoch ms) at which the server's clock will surely read `serverMs`. */
  localTime(serverMs: number): number {
    return serverMs - (this.#low || 0);
  }

  /**
   * Learns from an answer sent at `sentAt` and received at `receivedAt` (local epoch ms). A cached
   * copy (`Age`) or no plausible `Date` tells nothing.
   */
  observe(headers: Headers, sentAt = Date.now(), receivedAt = sentAt): void {
    this.heard = true;
    const date = headers.has("age") ? undefined : parseHttpDate(headers.get("date"));
    if (date === undefined) return;
    const low = date - receivedAt;
    const high = date + 1000 - sentAt;
    const meets = low <= this.#high && high >= this.#low;
    this.#low = meets ? Math.max(this.#low, low) : low;
    this.#high = meets ? Math.min(this.#high, high) : high;
  }
}
