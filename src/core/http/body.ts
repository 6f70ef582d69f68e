/** Reading response bodies without ever throwing: odd bodies become data, not crashes. */

const EXCERPT_LENGTH = 200;
// A text body kept on an error: enough to read a proxy's page, never a whole 10 MB answer.
const KEPT_LENGTH = 4_096;

/** The text of a body, or `""` if it cannot be read (already consumed, stream error). */
export async function readText(response: Response): Promise<string> {
  try {
    return await response.text();
  } catch {
    return "";
  }
}

/** A single-line excerpt for messages and logs: HTML and JSON alike stay short. */
export function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > EXCERPT_LENGTH ? `${line.slice(0, EXCERPT_LENGTH)}…` : line;
}

/** The text body an error keeps: at most {@link KEPT_LENGTH} characters, marked when cut. */
export function keptBody(text: string): string {
  return text.length > KEPT_LENGTH ? `${text.slice(0, KEPT_LENGTH)}… (${text.length} characters in all)` : text;
}

export type ParsedBody = { ok: true; value: unknown } | { ok: false; text: string };

/** JSON when the text is JSON (whatever the content-type says), otherwise the raw text (blank text too). */
export function parseJson(text: string): ParsedBody {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, text };
  }
}

/** Response headers as a plain object with lower-case names (Headers is not serializable). */
export function headersToObject(headers: Headers): Record<string, string> {
  const result: Record<string, string> = {};
  headers.forEach((value, name) => {
    result[name.toLowerCase()] = value;
  });
  return result;
}
