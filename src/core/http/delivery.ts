/**
 * What a failed attempt tells about delivery: whether the request may have reached the server.
 * A write that may have reached it may have been applied, and its error says so.
 */

const CODE = /^[A-Za-z][A-Za-z0-9_]{2,}$/;

/** The first system error code in an error's cause chain (undici nests it two causes deep). */
export function systemErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === "object" && current !== null; depth++) {
    const { code, cause, errors } = current as { code?: unknown; cause?: unknown; errors?: unknown };
    if (typeof code === "string" && CODE.test(code)) return code;
    current = cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return undefined;
}

/** The innermost message of the cause chain, with any query string cut (it may hold data). */
export function innermostMessage(error: unknown): string | undefined {
  let message: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message?.replace(/\?[^\s)"']*/g, "?…");
}

/** Whether an HTTP answer leaves the outcome of a write open (the server or a proxy failed). */
export const outcomeUnknown = (status: number): boolean => status >= 500 || status === 408;
