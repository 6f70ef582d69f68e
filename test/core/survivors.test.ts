import { describe, expect, it } from "vitest";
import { errorFields, HubValidationError } from "public-hub-sdk";
import { parseAward } from "public-hub-sdk/server";
import { unwrapBody } from "../../src/core/answer";

const WALLET = "0x1111111111111111111111111111111111111111";

const refusal = (input: unknown) => {
  try {
    parseAward(input);
  } catch (error) {
    return error as HubValidationError;
  }
  throw new Error("parseAward accepted the award");
};

describe("field paths of framework error bodies", () => {
  it("joins a nested FastAPI loc into the field's path, without its body prefix", () => {
    const { issues } = errorFields({ detail: [{ loc: ["body", "reward", "amount"], msg: "must be positive", type: "value_error" }] });
    expect(issues).toEqual([{ path: ["reward", "amount"], message: "must be positive", code: "value_error" }]);
  });
});

describe("unwrapBody without an envelope key", () => {
  it("returns the body as it is, even one with a field named undefined", () => {
    const body = { undefined: { id: 1 }, name: "Alpha Hub" };
    expect(unwrapBody(body, undefined)).toBe(body);
    expect(unwrapBody(body, "undefined")).toEqual({ id: 1 });
  });
});

describe("award shape messages", () => {
  it("gives the amount-or-kind hint only when amount or kind is the unknown field", () => {
    const error = refusal({ wallet: WALLET, amount: 5, ref: "quest-1", "": 1 });
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues.map((issue) => issue.message)).toEqual(['unknown field "": this award takes wallet, amount, reason, ref']);
    expect(refusal({ wallet: WALLET, kind: "daily-login", ref: "login-1", amount: 5 }).issues.map((issue) => issue.message)).toEqual([
      'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)',
    ]);
  });
});
