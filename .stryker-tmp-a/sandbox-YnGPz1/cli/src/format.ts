/**
 * A value as text a person reads: primitives as they are, objects as `key=value` pairs (nested
 * ones in braces), arrays comma-separated. Never `[object Object]`.
 */
// @ts-nocheck

export function readable(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (Array.isArray(value)) return value.map(readable).join(", ");
  if (typeof value === "object") {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, inner]) => `${key}=${inner !== null && typeof inner === "object" && !Array.isArray(inner) ? `{${readable(inner)}}` : readable(inner)}`)
      .join(" ");
  }
  return String(value);
}

/** Rows as an aligned table with a header: the union of their keys, in first-seen order. */
export function table(rows: ReadonlyArray<Record<string, unknown>>): string {
  const columns: string[] = [];
  for (const row of rows) for (const key of Object.keys(row)) if (!columns.includes(key)) columns.push(key);
  const cells = rows.map((row) => columns.map((column) => readable(row[column])));
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)));
  const numeric = columns.map((_, i) => cells.every((line) => line[i] === "" || /^-?[\d.,]+$/.test(line[i]!)));
  const format = (line: string[]) =>
    line.map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!))).join("  ").trimEnd();
  return [format(columns.map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c))), ...cells.map(format)].join("\n");
}

/** An object as `key: value` lines; nested objects flattened to dotted keys (`token.symbol: ALP`). */
export function fields(value: unknown, prefix = ""): string[] {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return [`${prefix || "value"}: ${readable(value)}`];
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0 && prefix) return [`${prefix}: {}`];
  return entries.flatMap(([key, inner]) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner) ? fields(inner, `${prefix}${key}.`) : [`${prefix}${key}: ${readable(inner)}`],
  );
}
