// @ts-nocheck
import * as z from "zod/mini";
import { HubValidationError, type ValidationIssue } from "../core/errors";

/**
 * Parses `input` with a zod schema and returns it as given (not zod's copy: the caller's object is
 * what is serialized and sent), or throws the SDK's {@link HubValidationError}, whose issues keep
 * zod's `path`, `code` and `message`. zod reports all unknown keys of an object as one issue at the
 * object; they become one issue per key, at the key, so each names the field to fix.
 */
export function validate<T>(schema: z.ZodMiniType<T>, input: unknown, what: string): T {
  const result = schema.safeParse(input);
  if (result.success) return input as T;
  const issues = result.error.issues.flatMap((issue): ValidationIssue[] => {
    const { path, code, message } = issue;
    return issue.code === "unrecognized_keys" ? issue.keys.map((key) => ({ path: [...path, key], code, message })) : [{ path, code, message }];
  });
  throw new HubValidationError({ what, issues });
}

/**
 * A string that is not blank; `what` names it in the messages, which never hold the value. The
 * blank check leaves the value as given (`z.trim()` would change zod's output) and reports zod's
 * `too_small`, as for an empty string.
 */
export const text = (what: string) =>
  z.string({ error: `${what} must be a string` }).check((payload) => {
    if (payload.value.trim() === "") {
      payload.issues.push({ code: "too_small", origin: "string", minimum: 1, inclusive: true, input: payload.value, message: `${what} must not be empty` });
    }
  });
