import { HubValidationError, type ValidationIssue } from "../core/errors";
import * as z from "zod/mini";
// Named from zod's core, where zod tells library authors to import it: `z.core.$constructor`
// would make bundlers keep the whole core namespace, its locales too (80 KB min+gz).
import { $constructor } from "zod/v4/core";

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

/**
 * An award of points, with an optional reason. Exact: a field not listed here is refused at
 * compile time and at run time (a typo such as `reson` would otherwise be sent without its reason).
 */
export interface AmountAward {
  /** Wallet address receiving the points; non-empty. */
  wallet: string;
  /** Points to award: a finite number greater than 0. */
  amount: number;
  /** Free-text reason label. */
  reason?: string | undefined;
  /** Idempotency key: the server applies one award per `ref`. Derive it from the event, e.g. `quest-42:0xabc`. */
  ref: string;
  /** Not in this shape: an award has `amount` or `kind`, never both. */
  kind?: never;
}

/** An award of a server-defined kind: the server decides the points. Exact, like {@link AmountAward}. */
export interface KindAward {
  /** Wallet address receiving the points; non-empty. */
  wallet: string;
  /** The kind of award, e.g. `"daily-login"`; non-empty. */
  kind: string;
  /** Idempotency key: the server applies one award per `ref`. */
  ref: string;
  /** Not in this shape: an award has `amount` or `kind`, never both. */
  amount?: never;
  /** Not in this shape: the kind names the reason. */
  reason?: never;
}

/**
 * The body of an award: one of the two shapes the spec shows.
 * @example
 * ```ts
 * const awards: AwardInput[] = [
 *   { wallet: "0xabc", amount: 10, ref: "quest-42:0xabc" },
 *   { wallet: "0xabc", kind: "daily-login", ref: "login-2026-11-22:0xabc" },
 * ];
 * ```
 */
export type AwardInput = AmountAward | KindAward;

/** The message of a shape's own issues: a non-object, or unknown keys (named; never a value). */
const shapeError = (fields: string) => (issue: z.core.$ZodRawIssue) => {
  if (issue.code !== "unrecognized_keys") return "an award must be an object";
  const keys = issue.keys as string[];
  // An award with a `kind` is read as a kind award: only `amount` can be the extra one.
  const both = keys.includes("amount") ? " (give either amount or kind, not both)" : "";
  return `unknown field ${keys.map((key) => `"${key}"`).join(", ")}: this award takes ${fields}${both}`;
};

// zod types its `init` as an assertion, which TypeScript calls only through an annotated name.
const unionInit: (inst: z.ZodMiniUnion, def: z.core.$ZodUnionDef) => void = z.ZodMiniUnion.init;

// Fields in the order their issues are reported: who, which award, then what.
const wallet = text("wallet");
const ref = text("ref (the idempotency key)");

const amountAward = z.strictObject(
  {
    wallet,
    ref,
    // zod 4's number refuses NaN and ±Infinity.
    amount: z.number({ error: "amount must be a finite number" }).check(z.positive({ error: "amount must be greater than 0" })),
    reason: z.optional(z.string({ error: "reason must be a string" })),
  },
  { error: shapeError("wallet, amount, reason, ref") },
);

const kindAward = z.strictObject({ wallet, ref, kind: text("kind") }, { error: shapeError("wallet, kind, ref") });

/**
 * The two award shapes of `POST /hub/{slug}/bits/earn` as a zod schema: `{ wallet, amount,
 * reason?, ref }` or `{ wallet, kind, ref }`, exact (unknown keys refused). Use it as any zod
 * schema (zod or zod/mini): in your own schemas, to check awards before queueing them, or to
 * publish a JSON Schema. It is a Standard Schema too. The client checks every award itself.
 * @example
 * ```ts
 * import * as z from "zod";
 * import { awardSchema } from "public-hub-sdk/server";
 *
 * const result = z.array(awardSchema).safeParse(JSON.parse(body));
 * if (!result.success) console.log(z.prettifyError(result.error));
 * const jsonSchema = z.toJSONSchema(awardSchema);
 * ```
 */
export const awardSchema: z.ZodMiniType<AwardInput, AwardInput> = keyedUnion("kind", kindAward, amountAward);

/**
 * A union of two shapes told apart by the presence of one key (`kind` present → the kind shape,
 * else the amount shape), so that a bad award's issues are its shape's own, at their field
 * ("wallet must not be empty" at `[1, "wallet"]`), where zod's union would say "Invalid input" at
 * the award after trying both. zod's discriminated union needs a literal discriminator, and `kind`
 * is any string; so this extends zod's union as zod's own discriminated union does (a union whose
 * `parse` picks the option): still a union to zod, so `z.toJSONSchema` and the types see one.
 */
function keyedUnion<A extends z.ZodMiniType, B extends z.ZodMiniType>(key: string, withKey: A, without: B): z.ZodMiniUnion<[B, A]> {
  const KeyedUnion = $constructor<z.ZodMiniUnion<[B, A]>>("PublicHubKeyedUnion", (inst, def) => {
    unionInit(inst, def);
    inst._zod.parse = (payload, ctx) => {
      const input = payload.value;
      return (typeof input === "object" && input !== null && key in input ? withKey : without)._zod.run(payload, ctx);
    };
  });
  return new KeyedUnion({ type: "union", options: [without, withKey] });
}

/** The fields an award declares (`AmountAward`, `KindAward`). */
const DECLARED = ["wallet", "amount", "reason", "kind", "ref"] as const;

/**
 * Checks an award with {@link awardSchema} (the shape it means: `kind` present → kind shape, else
 * the amount shape), so the issues name the real problem. The award is read as its type describes
 * it: each declared field once, by property access (a class getter or an inherited field
 * included), in the caller's order; any other own key is refused. Returns that copy: the object
 * that is serialized, sent and signed.
 * @throws {HubValidationError} naming every problem.
 */
export function parseAward(input: unknown): AwardInput {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return validate<AwardInput>(awardSchema, input, "award");
  const copy: Record<string, unknown> = {};
  let keys: string[];
  try {
    keys = [...new Set([...Object.keys(input), ...DECLARED])];
    for (const key of keys) {
      // An unknown own key is refused by name: its value is never read.
      const value = (DECLARED as readonly string[]).includes(key) ? (input as Record<string, unknown>)[key] : null;
      if (value !== undefined) copy[key] = value;
    }
  } catch (error) {
    throw new HubValidationError({ what: "award", issues: [{ path: [], code: "custom", message: `the award could not be read: ${(error as Error | null)?.message ?? String(error)}` }] });
  }
  return validate<AwardInput>(awardSchema, copy, "award");
}
