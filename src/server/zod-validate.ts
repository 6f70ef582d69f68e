import * as z from "zod/mini";
import { HubValidationError } from "../core/errors/hub-validation-error";

/** Parses `value` with a zod schema or throws a {@link HubValidationError} naming every issue. */
export function validate<T>(schema: z.ZodMiniType<T>, value: unknown, what: string, path: PropertyKey[] = []): T {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  throw new HubValidationError(
    what,
    result.error.issues.map((issue) => ({ path: [...path, ...issue.path], code: issue.code, message: issue.message })),
  );
}
