/** A logger that keeps every line it is given. */
export function capture() {
  const lines: string[] = [];
  const keep = (line: string) => void lines.push(line);
  return { lines, logger: { error: keep, warn: keep, info: keep, debug: keep } };
}
