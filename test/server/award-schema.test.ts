import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { awardSchema, parseAward } from "public-hub-sdk/server";

const amount = { wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" };
const kind = { wallet: "0xabc", kind: "daily-login", ref: "login:0xabc" };

const issuesOf = (input: unknown) => {
  try {
    parseAward(input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(HubValidationError);
    return (error as HubValidationError).issues;
  }
};

describe("parseAward", () => {
  it.each([
    ["the amount shape", amount],
    ["the amount shape without reason", { wallet: "w", amount: 0.5, ref: "r" }],
    ["an explicit undefined reason", { ...amount, reason: undefined }],
    ["the kind shape", kind],
  ])("accepts %s and returns it unchanged", (_name, input) => {
    expect(parseAward(input)).toBe(input);
  });

  it.each([
    ["not an object", "award", [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    ["null", null, [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    ["an array", [amount], [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    ["both amount and kind", { ...amount, kind: "x" }, [{ path: [], code: "custom", message: "give either amount or kind, not both" }]],
    ["a wallet number", { ...amount, wallet: 1 }, [{ path: ["wallet"], code: "invalid_type", message: "wallet must be a string" }]],
    ["a blank wallet", { ...amount, wallet: " " }, [{ path: ["wallet"], code: "too_small", message: "wallet must not be empty" }]],
    ["no ref", { wallet: "w", amount: 1 }, [{ path: ["ref"], code: "invalid_type", message: "ref (the idempotency key) must be a string" }]],
    ["a blank ref", { ...amount, ref: "" }, [{ path: ["ref"], code: "too_small", message: "ref (the idempotency key) must not be empty" }]],
    ["amount 0", { ...amount, amount: 0 }, [{ path: ["amount"], code: "too_small", message: "amount must be greater than 0" }]],
    ["amount NaN", { ...amount, amount: Number.NaN }, [{ path: ["amount"], code: "invalid_type", message: "amount must be a finite number" }]],
    ["amount as a string", { ...amount, amount: "10" }, [{ path: ["amount"], code: "invalid_type", message: "amount must be a finite number" }]],
    ["a reason number", { ...amount, reason: 5 }, [{ path: ["reason"], code: "invalid_type", message: "reason must be a string" }]],
    ["a blank kind", { ...kind, kind: "" }, [{ path: ["kind"], code: "too_small", message: "kind must not be empty" }]],
    ["a kind with a reason", { ...kind, reason: "r" }, [{ path: ["reason"], code: "unrecognized_keys", message: 'unknown field "reason": this award takes wallet, kind, ref' }]],
    ["a typo", { ...amount, reson: "x" }, [{ path: ["reson"], code: "unrecognized_keys", message: 'unknown field "reson": this award takes wallet, amount, reason, ref' }]],
  ])("refuses %s with exactly its issue", (_name, input, expected) => {
    expect(issuesOf(input)).toEqual(expected);
  });

  it("names every problem of one award, in field order, and the value of none", () => {
    const issues = issuesOf({ wallet: "", amount: -1, ref: "SECRET-REF", extra: "SECRET-EXTRA" });
    expect(issues.map((issue) => issue.path)).toEqual([["wallet"], ["amount"], ["extra"]]);
    expect(JSON.stringify(issues)).not.toContain("SECRET-EXTRA");
    expect(() => parseAward({ wallet: "" })).toThrow(/^Invalid award: wallet: wallet must not be empty; ref: /);
  });
});

describe("awardSchema (Standard Schema)", () => {
  const validate = (value: unknown) => awardSchema["~standard"].validate(value);

  it("is version 1 of vendor public-hub-sdk", () => {
    expect(awardSchema["~standard"]).toMatchObject({ version: 1, vendor: "public-hub-sdk" });
  });

  it.each([amount, kind])("gives a valid award back as its value: %j", async (input) => {
    expect(await validate(input)).toEqual({ value: input });
  });

  it("gives the issues of an invalid one with their paths and messages only", async () => {
    expect(await validate({ wallet: "w", amount: 0, ref: "r" })).toEqual({
      issues: [{ path: ["amount"], message: "amount must be greater than 0" }],
    });
    expect(await validate(undefined)).toEqual({ issues: [{ path: [], message: "an award must be an object" }] });
  });
});
