import * as z from "zod/mini";
import { slugSchema } from "../core/schemas";

const retrySchema = z.union([
  z.number().check(z.int("retry must be a whole number"), z.nonnegative("retry must be 0 or more")),
  z.object({
    limit: z.optional(z.number().check(z.int("retry.limit must be a whole number"), z.nonnegative())),
    backoff: z.optional(z.number().check(z.nonnegative())),
    maxBackoff: z.optional(z.number().check(z.nonnegative())),
    maxRetryAfter: z.optional(z.number().check(z.nonnegative())),
  }),
]);

/** Checks constructor options; unknown keys are ignored, never echoed (a secret may sit there). */
export const clientOptionsSchema = z.object({
  clientId: z.string("clientId is required").check(z.refine((v) => v.trim() !== "", "clientId must not be empty")),
  hub: slugSchema,
  timeout: z.optional(z.union([z.literal(false), z.number().check(z.positive("timeout must be greater than 0"))])),
  retry: z.optional(retrySchema),
  fetch: z.optional(z.custom<typeof fetch>((v) => typeof v === "function", "fetch must be a function")),
  headers: z.optional(z.record(z.string(), z.string("header values must be strings"))),
  onRequest: z.optional(z.custom<() => void>((v) => typeof v === "function", "onRequest must be a function")),
});
