import { HubValidationError, type ValidationIssue } from "../core/errors/hub-validation-error";
import type { StandardSchemaV1 } from "../core/types/standard-schema";

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

type Issue = Omit<ValidationIssue, "path"> & { path: PropertyKey[] };

const AMOUNT_FIELDS = ["wallet", "amount", "reason", "ref"];
const KIND_FIELDS = ["wallet", "kind", "ref"];

const nonEmpty = (value: unknown, field: string, what = field): Issue | undefined => {
  if (typeof value !== "string") return { path: [field], code: "invalid_type", message: `${what} must be a string` };
  return value.trim() === "" ? { path: [field], code: "too_small", message: `${what} must not be empty` } : undefined;
};

const amountIssue = (amount: unknown): Issue | undefined => {
  // Number.isFinite is false for anything but a finite number: it does not coerce.
  if (!Number.isFinite(amount)) return { path: ["amount"], code: "invalid_type", message: "amount must be a finite number" };
  return (amount as number) > 0 ? undefined : { path: ["amount"], code: "too_small", message: "amount must be greater than 0" };
};

/**
 * Every problem of an award, none when it is valid. Plain checks rather than a schema library:
 * the server entry's cold start must stay close to ky's alone (see bench/RESULTS.md). No value is
 * ever put in a message; field names are.
 */
export function awardIssues(input: unknown): Issue[] {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return [{ path: [], code: "invalid_type", message: "an award must be an object" }];
  }
  const award = input as Record<string, unknown>;
  const byKind = "kind" in award;
  if (byKind && "amount" in award) return [{ path: [], code: "custom", message: "give either amount or kind, not both" }];
  const fields = byKind ? KIND_FIELDS : AMOUNT_FIELDS;
  const issues = [
    nonEmpty(award.wallet, "wallet"),
    nonEmpty(award.ref, "ref", "ref (the idempotency key)"),
    byKind ? nonEmpty(award.kind, "kind") : amountIssue(award.amount),
    !byKind && award.reason !== undefined && typeof award.reason !== "string"
      ? { path: ["reason"], code: "invalid_type", message: "reason must be a string" }
      : undefined,
  ].filter((issue): issue is Issue => issue !== undefined);
  for (const key of Object.keys(award)) {
    if (!fields.includes(key)) {
      issues.push({ path: [key], code: "unrecognized_keys", message: `unknown field "${key}": this award takes ${fields.join(", ")}` });
    }
  }
  return issues;
}

/**
 * Checks an award against the shape it means (`kind` present → kind shape, else the amount shape),
 * so the issues name the real problem rather than "matches neither shape".
 * @throws {HubValidationError} naming every problem.
 * @example
 * ```ts
 * const award = parseAward(JSON.parse(line)); // throws HubValidationError for a bad one
 * ```
 */
export function parseAward(input: unknown): AwardInput {
  const issues = awardIssues(input);
  if (issues.length > 0) throw new HubValidationError("award", issues);
  return input as AwardInput;
}

/**
 * The two award shapes of `POST /hub/{slug}/bits/earn` as a Standard Schema
 * (https://standardschema.dev), to check awards in your own code with any library that accepts
 * one (the client checks them itself before sending).
 * @example
 * ```ts
 * const result = await awardSchema["~standard"].validate({ wallet: "0xabc", amount: 10, ref: "r1" });
 * if (result.issues) console.log(result.issues);
 * ```
 */
export const awardSchema: StandardSchemaV1<unknown, AwardInput> = {
  "~standard": {
    version: 1,
    vendor: "public-hub-sdk",
    validate: (value) => {
      const issues = awardIssues(value);
      return issues.length > 0 ? { issues: issues.map(({ path, message }) => ({ path, message })) } : { value: value as AwardInput };
    },
  },
};
