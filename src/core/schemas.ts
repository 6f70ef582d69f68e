import * as z from "zod/mini";
import { HubValidationError } from "./errors/hub-validation-error";

/**
 * Input schemas of the reads, on `zod/mini` so that the browser bundle stays small. Everything is
 * checked before a request is built: bad input never reaches the network.
 */

/** A path segment value: non-empty, and not `.`/`..`, which URL parsers would collapse. */
export const segmentSchema = (what: string) =>
  z.string(`${what} must be a string`).check(
    z.refine((value) => value.trim() !== "", `${what} must not be empty`),
    z.refine((value) => value !== "." && value !== "..", `${what} must not be "." or ".."`),
  );

export const slugSchema = segmentSchema("hub slug");
export const walletSchema = segmentSchema("wallet");

export const leaderboardQuerySchema = z.optional(
  z.object({
    limit: z.optional(
      z.number("limit must be a number").check(
        z.int("limit must be an integer"),
        z.positive("limit must be greater than 0"),
      ),
    ),
  }),
);

/** Parses `value` or throws a {@link HubValidationError} naming every issue. */
export function validate<T>(schema: z.ZodMiniType<T>, value: unknown, what: string, path: PropertyKey[] = []): T {
  const result = z.safeParse(schema, value);
  if (result.success) return result.data;
  throw new HubValidationError(
    what,
    result.error.issues.map((issue) => ({
      path: [...path, ...issue.path],
      code: issue.code,
      message: issue.message,
    })),
  );
}
