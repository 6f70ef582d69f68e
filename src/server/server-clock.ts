import { parseHttpDate } from "../core/http/body";

/**
 * The server's clock as seen from here: the offset between the local clock and the `Date` header
 * of the server's latest fresh answer. Signed timestamps use it, so a skewed local clock still
 * signs within the server's ±300 s window.
 */
export class ServerClock {
  #offsetMs = 0;

  /** Milliseconds to add to the local clock to get server time. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Unix seconds in server time, as the decimal string `x-api-timestamp` carries. */
  timestamp(): string {
    return String(Math.floor((Date.now() + this.#offsetMs) / 1000));
  }

  /**
   * Learns the offset from an answer's headers. Only a fresh answer tells the time: a cached copy
   * (any `Age` header, RFC 9111) carries the `Date` of when it was stored, hours old perhaps. A
   * missing, unreadable or implausible `Date` (`0`, the year 1970) changes nothing. True when the offset moved by more than a second.
   */
  observe(headers: Headers): boolean {
    if (headers.has("age")) return false;
    const serverMs = parseHttpDate(headers.get("date"));
    if (serverMs === undefined) return false;
    // Date has whole seconds: the server's time was within [date, date + 1 s), so take the middle.
    const offset = serverMs + 500 - Date.now();
    const moved = Math.abs(offset - this.#offsetMs) > 1_000;
    this.#offsetMs = offset;
    return moved;
  }
}
