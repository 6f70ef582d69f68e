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

/** The two award shapes the spec shows for `POST /hub/{slug}/bits/earn`. */
export const awardSchema = z.union([amountAward, kindAward]);

/** An award with points and an optional reason. */
export type AmountAward = z.infer<typeof amountAward>;
/** An award of a server-defined kind (the server decides the points). */
export type KindAward = z.infer<typeof kindAward>;
/** The body of an award: one of the two shapes. */
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
