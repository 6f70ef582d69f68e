/**
 * A hub profile read from JSON (a file `doctor --profile` wrote, or one a user pinned). Its
 * signals are read off an answer by `answerSignals` and `awardOutcome` (answer.ts). Server and mock
 * code only: zod stays out of the browser entry, whose client checks the fields it reads.
 */
import * as z from "zod/mini";
import { HubValidationError, type ValidationIssue } from "./errors";
import type { HubErrorFormat, HubProfile } from "./types/profile";

// Built when a profile is read (once per client or mock), not when the module loads: a schema made
// at load is code no test's coverage reaches (docs/mutation.md, module scope).
function profileSchema() {
  const formats = ["nested", "flat", "error-string", "problem", "problem+json", "error-object", "errors-array", "graphql", "nestjs", "fastify", "fastapi", "text", "html"] as const satisfies readonly HubErrorFormat[];
  const name = z.string().check(z.minLength(1));
  const status = z.number().check(z.int(), z.gte(100), z.lte(599));
  const signal = z.strictObject({
    status,
    code: z.optional(name),
    header: z.optional(z.strictObject({ name, value: z.string() })),
    field: z.optional(z.strictObject({ name, value: z.union([z.string(), z.boolean()]) })),
  });
  return z.strictObject({
    version: z.literal(1),
    hub: z.optional(z.strictObject({ baseUrl: name, slug: name })),
    envelope: z.optional(name),
    requestIdHeader: z.optional(z.nullable(name)),
    award: z.optional(z.strictObject({ status: z.optional(status), duplicate: z.optional(z.union([signal, z.literal("indistinguishable")])), conflict: z.optional(z.union([signal, z.literal("indistinguishable")])) })),
    errors: z.optional(z.enum(formats)),
    rateLimit: z.optional(
      z.strictObject({
        headers: z.enum(["none", "ietf", "ietf-draft7", "ietf-legacy", "x-ratelimit"]),
        reset: z.optional(z.enum(["seconds", "epoch-seconds", "epoch-ms"])),
        resetLagSeconds: z.optional(z.number().check(z.gte(0), z.lte(3600))),
      }),
    ),
    leaderboard: z.optional(z.strictObject({ rows: z.string(), pages: z.optional(z.enum(["none", "relay", "cursor", "page", "has-more", "next", "link"])) })),
    notes: z.optional(z.array(z.string())),
  });
}

/**
 * A hub profile, checked: every field known and of its type (a typo is refused, not ignored).
 * @throws {HubValidationError} naming every problem.
 * @example
 * ```ts
 * const profile = parseHubProfile(JSON.parse(readFileSync("hub-profile.json", "utf8")));
 * ```
 */
export function parseHubProfile(json: unknown): HubProfile {
  const result = profileSchema().safeParse(json);
  if (result.success) return result.data as HubProfile;
  const issues = result.error.issues.flatMap((issue): ValidationIssue[] =>
    issue.code === "unrecognized_keys" ? issue.keys.map((key) => ({ path: [...issue.path, key], code: issue.code, message: `unknown field "${key}"` })) : [{ path: issue.path, code: issue.code, message: issue.message }],
  );
  throw new HubValidationError({ what: "hub profile", issues });
}
