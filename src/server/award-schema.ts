import * as z from "zod/mini";
import { text, validate } from "./validate";

/**
 * An award of points, with an optional reason. Exact: a field not listed here is refused at
 * compile time and at run time (a typo such as `reson` would otherwise be sent without its reason).
 * @example
 * ```ts
 * const award: AmountAward = { wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" };
 * ```
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

/**
 * An award of a server-defined kind: the server decides the points. Exact, like {@link AmountAward}.
 * @example
 * ```ts
 * const award: KindAward = { wallet: "0xabc", kind: "daily-login", ref: "login-2026-11-22:0xabc" };
 * ```
 */
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
  const both = keys.includes("amount") || keys.includes("kind") ? " (give either amount or kind, not both)" : "";
  return `unknown field ${keys.map((key) => `"${key}"`).join(", ")}: this award takes ${fields}${both}`;
};

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
export const awardSchema: z.ZodMiniType<AwardInput, AwardInput> = z.union([amountAward, kindAward]);

/**
 * Checks an award against the shape it means (`kind` present → kind shape, else the amount shape),
 * so the issues name the real problem; zod's union would report "matches neither shape" with both
 * shapes' issues nested, after trying both. What is checked is what `JSON.stringify` sends: the
 * award's own enumerable fields, each read once (inherited fields and class getters are not sent,
 * so they do not count; a getter that answers differently each time is read once). Returns that
 * copy, the object to serialize.
 * @throws {HubValidationError} naming every problem.
 * @example
 * ```ts
 * const award = parseAward(JSON.parse(line)); // throws HubValidationError for a bad one
 * ```
 */
export function parseAward(input: unknown): AwardInput {
  const own = typeof input === "object" && input !== null && !Array.isArray(input) ? { ...input } : input;
  const byKind = typeof own === "object" && own !== null && "kind" in own;
  return validate<AwardInput>(byKind ? kindAward : amountAward, own, "award");
}
