/**
 * Seconds until a retry is allowed, from a `Retry-After` value: delta-seconds (`"120"`) or an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim(); // blank: neither a number nor a date below
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
