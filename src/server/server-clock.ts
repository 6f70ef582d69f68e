/**
 * The server's clock as seen from here: the offset between the local clock and the `Date` header
 * of the server's latest answer. Signed timestamps use it, so a skewed local clock still signs
 * within the server's ±300 s window.
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

  /** Learns the offset from a response's `Date` header; a missing or bad header changes nothing. */
  observe(dateHeader: string | null | undefined): void {
    const serverMs = dateHeader ? Date.parse(dateHeader) : Number.NaN;
    if (Number.isNaN(serverMs)) return;
    // Date has whole seconds: the server's time was within [date, date + 1 s), so take the middle.
    this.#offsetMs = serverMs + 500 - Date.now();
  }
}
