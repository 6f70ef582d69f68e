import * as z from "zod/mini";
import { HubValidationError } from "../core/errors/hub-validation-error";
import { validate } from "./zod-validate";

const nonEmpty = (what: string) =>
  z.string(`${what} must be a string`).check(z.refine((value) => value.trim() !== "", `${what} must not be empty`));

const base = {
  wallet: nonEmpty("wallet"),
  ref: nonEmpty("ref (the idempotency key)"),
};

// Extra fields are passed through (loose): a newer server may accept more than the spec shows.
const amountAward = z.looseObject({
  ...base,
  amount: z.number("amount must be a finite number").check(z.positive("amount must be greater than 0")),
  reason: z.optional(z.string("reason must be a string")),
});

const kindAward = z.looseObject({ ...base, kind: nonEmpty("kind") });

/**
 * The two award shapes of `POST /hub/{slug}/bits/earn` as a zod/mini union, to check awards in
 * your own code (the client checks them itself before sending).
 * @example
 * ```ts
 * import * as z from "zod/mini";
 * const ok = z.safeParse(awardSchema, { wallet: "0xabc", amount: 10, ref: "r1" }).success; // true
 * ```
 */
export const awardSchema: z.core.$ZodType<AwardInput> = z.union([amountAward, kindAward]);

/**
 * An award of points, with an optional reason.
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
  /** Further fields are sent as given. */
  [field: string]: unknown;
}

/**
 * An award of a server-defined kind: the server decides the points.
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
  /** Further fields are sent as given. */
  [field: string]: unknown;
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

/**
 * Checks an award against the shape it means (`kind` present → kind shape, else the amount shape),
 * so the issues name the real problem rather than "matches neither union branch".
 */
export function parseAward(input: unknown): AwardInput {
  const fields = typeof input === "object" && input !== null ? input : {};
  if ("amount" in fields && "kind" in fields) {
    throw new HubValidationError("award", [{ path: [], code: "custom", message: "give either amount or kind, not both" }]);
  }
  return "kind" in fields ? validate(kindAward, input, "award") : validate(amountAward, input, "award");
}
