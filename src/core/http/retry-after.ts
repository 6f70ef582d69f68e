/**
 * Seconds until a retry is allowed, from a `Retry-After` value: delta-seconds (`"120"`) or an
 * HTTP date. Undefined when absent or unreadable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim(); // blank: neither a number nor a date below
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  // A date names its month (HTTP dates) or has a "T" (ISO 8601): without a letter, Date.parse
  // would read junk such as "-3" or "1." as a date in the past, that is no wait at all.
  const date = /[a-z]/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
