import { describe, expect, it } from "vitest";
import * as z from "zod";
import { HubValidationError } from "public-hub-sdk";
import { awardSchema, parseAward } from "public-hub-sdk/server";

const amount = { wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" };
const kind = { wallet: "0xabc", kind: "daily-login", ref: "login:0xabc" };
const WALLET = "0x2222222222222222222222222222222222222222";

const issuesOf = (input: unknown) => {
  try {
    parseAward(input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(HubValidationError);
    return (error as HubValidationError).issues;
  }
};

const refusal = (input: unknown) => {
  try {
    parseAward(input);
  } catch (error) {
    return error as HubValidationError;
  }
  throw new Error("parseAward accepted the award");
};

describe("parseAward", () => {
  it.each([
    ["the amount shape", amount],
    ["the amount shape without reason", { wallet: "w", amount: 0.5, ref: "r" }],
    ["an explicit undefined reason", { ...amount, reason: undefined }],
    ["the kind shape", kind],
  ])("accepts %s and returns its own fields, the object that is sent", (_name, input) => {
    // What is sent: JSON leaves an undefined field out, and so does the copy.
    const sent = JSON.parse(JSON.stringify(input)) as object;
    expect(parseAward(input)).toStrictEqual(sent);
    expect(Object.keys(parseAward(input))).toEqual(Object.keys(sent));
  });

  it.each([
    ["not an object", "award", [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    ["null", null, [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    ["an array", [amount], [{ path: [], code: "invalid_type", message: "an award must be an object" }]],
    [
      "both amount and kind",
      { wallet: "w", amount: 1, kind: "x", ref: "r" },
      [{ path: ["amount"], code: "unrecognized_keys", message: 'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)' }],
    ],
    ["neither amount nor kind", { wallet: "w", ref: "r" }, [{ path: ["amount"], code: "invalid_type", message: "amount must be a finite number" }]],
    ["amount Infinity", { ...amount, amount: Number.POSITIVE_INFINITY }, [{ path: ["amount"], code: "invalid_type", message: "amount must be a finite number" }]],
    ["a negative amount", { ...amount, amount: -0.5 }, [{ path: ["amount"], code: "too_small", message: "amount must be greater than 0" }]],
    ["a kind number", { ...kind, kind: 1 }, [{ path: ["kind"], code: "invalid_type", message: "kind must be a string" }]],
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

describe("awardSchema (a zod schema)", () => {
  it("parses either shape with zod's own safeParse, and refuses a typo", () => {
    expect(awardSchema.safeParse(amount)).toEqual({ success: true, data: amount });
    expect(awardSchema.safeParse(kind)).toEqual({ success: true, data: kind });
    expect(awardSchema.safeParse({ ...amount, reson: "x" }).success).toBe(false);
    expect(awardSchema.safeParse({ ...amount, kind: "x" }).success).toBe(false);
  });

  it("reports an award with both amount and kind against the kind shape, saying to give one", () => {
    const result = awardSchema.safeParse({ wallet: "w", amount: 1, kind: "k", ref: "r" });
    expect(result.error!.issues.map(({ code, path, message }) => ({ code, path, message }))).toEqual([
      { code: "unrecognized_keys", path: [], message: 'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)' },
    ]);
  });

  it("composes with zod (classic): z.array(awardSchema) checks every item, at its index", () => {
    const result = z.array(awardSchema).safeParse([amount, { ...kind, kind: " " }]);
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([expect.objectContaining({ path: [1, "kind"], code: "too_small", message: "kind must not be empty" })]);
    expect(z.array(awardSchema).parse([amount, kind])).toEqual([amount, kind]);
  });

  it("gives a JSON Schema of the two exact shapes", () => {
    expect(z.toJSONSchema(awardSchema)).toEqual({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      anyOf: [
        {
          type: "object",
          properties: { wallet: { type: "string" }, ref: { type: "string" }, amount: { type: "number", exclusiveMinimum: 0 }, reason: { type: "string" } },
          required: ["wallet", "ref", "amount"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { wallet: { type: "string" }, ref: { type: "string" }, kind: { type: "string" } },
          required: ["wallet", "ref", "kind"],
          additionalProperties: false,
        },
      ],
    });
  });

  it("is a Standard Schema: valid awards come back as values, invalid ones as issues", async () => {
    expect(await awardSchema["~standard"].validate(amount)).toEqual({ value: amount });
    const result = await awardSchema["~standard"].validate({ wallet: "w", amount: 0, ref: "r" });
    expect(result.issues).toHaveLength(1);
  });

  it("never puts a value in a message", () => {
    const result = awardSchema.safeParse({ wallet: 7, amount: "SECRET-AMOUNT", ref: "SECRET-REF", note: "SECRET-NOTE" });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error!.issues) + result.error!.message).not.toContain("SECRET");
  });
});

describe("parseAward's messages", () => {
  it("names every unknown field, separated by commas", () => {
    expect(issuesOf({ ...amount, reson: "x", note: "y" }).map((issue) => issue.message)).toEqual([
      'unknown field "reson", "note": this award takes wallet, amount, reason, ref',
      'unknown field "reson", "note": this award takes wallet, amount, reason, ref',
    ]);
  });

  it("says a text field must be a string when it is not one", () => {
    expect(issuesOf({ ...amount, wallet: 42 })).toEqual([{ path: ["wallet"], code: "invalid_type", message: "wallet must be a string" }]);
  });
});

describe("an award's shape messages", () => {
  const issuesOf = (input: unknown) => ((() => {
    try {
      parseAward(input);
    } catch (error) {
      return error as HubValidationError;
    }
    throw new Error("expected a refusal");
  })());

  it("amount beside kind says to give one of them; another unknown field does not", () => {
    expect(issuesOf({ wallet: WALLET, kind: "daily", amount: 1, ref: "r" }).issues).toEqual([
      { path: ["amount"], code: "unrecognized_keys", message: 'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)' },
    ]);
    expect(issuesOf({ wallet: WALLET, amount: 1, ref: "r", reson: "x" }).issues).toEqual([
      { path: ["reson"], code: "unrecognized_keys", message: 'unknown field "reson": this award takes wallet, amount, reason, ref' },
    ]);
  });

  it.each([["a string", "award"], ["an array", [{ wallet: WALLET, amount: 1, ref: "r" }]], ["null", null]])("%s is refused as an award, not an object", (_name, input) => {
    const error = issuesOf(input);
    expect(error.issues).toEqual([{ path: [], code: "invalid_type", message: "an award must be an object" }]);
    expect(error.message).toBe("Invalid award: an award must be an object");
  });

  it("a getter throwing null: the award could not be read, with null named", () => {
    const award = { wallet: WALLET, amount: 1, get ref(): string {
      throw null;
    } };
    const error = issuesOf(award);
    expect(error.issues).toEqual([{ path: [], code: "custom", message: "the award could not be read: null" }]);
    expect(error.message).toBe("Invalid award: the award could not be read: null");
  });
});

describe("parseAward's hint to give amount or kind", () => {
  it("gives the amount-or-kind hint only when amount or kind is the unknown field", () => {
    const error = refusal({ wallet: WALLET, amount: 5, ref: "quest-1", "": 1 });
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues.map((issue) => issue.message)).toEqual(['unknown field "": this award takes wallet, amount, reason, ref']);
    expect(refusal({ wallet: WALLET, kind: "daily-login", ref: "login-1", amount: 5 }).issues.map((issue) => issue.message)).toEqual([
      'unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)',
    ]);
  });
});

describe("awardSchema's own issues (for callers who use the zod schema)", () => {
  it("a blank text field is zod's too_small of a string, minimum 1 inclusive, as for an empty string", () => {
    const result = awardSchema.safeParse({ ...amount, wallet: "   " });
    expect(result.success).toBe(false);
    expect(result.error!.issues).toEqual([
      { code: "too_small", origin: "string", minimum: 1, inclusive: true, path: ["wallet"], message: "wallet must not be empty" },
    ]);
  });
});

describe("z.array(awardSchema).safeParse(rows): issues name the field and the rule (issue 23)", () => {
  it("as dryRunAwards does: each problem at its row and field, in words", () => {
    const rows = [
      { wallet: "0xabc", amount: 10, ref: "ok-1" },
      { wallet: "", amount: 0, ref: "bad-1" },
      { wallet: "0xabc", kind: "", ref: "bad-2" },
      { wallet: "0xabc", amount: "ten", ref: "bad-3" },
      "not an award",
    ];
    const result = z.array(awardSchema).safeParse(rows);
    expect(result.error!.issues.map(({ path, message }) => ({ path, message }))).toEqual([
      { path: [1, "wallet"], message: "wallet must not be empty" },
      { path: [1, "amount"], message: "amount must be greater than 0" },
      { path: [2, "kind"], message: "kind must not be empty" },
      { path: [3, "amount"], message: "amount must be a finite number" },
      { path: [4], message: "an award must be an object" },
    ]);
    expect(z.prettifyError(result.error!)).not.toMatch(/Invalid input/);
  });
});

describe("an award is read as its type describes it", () => {
  it("a class getter and an inherited field are read, once each, and sent", () => {
    let reads = 0;
    class QuestAward {
      wallet = "0xabc";
      amount = 5;
      ref = "q-1";
      get reason() {
        reads++;
        return "quest";
      }
    }
    const inherited = Object.assign(Object.create({ reason: "from the prototype" }), { wallet: "0xabc", amount: 1, ref: "q-2" });
    expect(parseAward(new QuestAward())).toEqual({ wallet: "0xabc", amount: 5, ref: "q-1", reason: "quest" });
    expect(reads).toBe(1);
    expect(parseAward(inherited)).toEqual({ wallet: "0xabc", amount: 1, ref: "q-2", reason: "from the prototype" });
  });

  it("an unknown own key is refused by name, its getter never read; a getter that throws is a HubValidationError", () => {
    const award = { wallet: "0xabc", amount: 5, ref: "q-3", get note(): string {
      throw new Error("never read");
    } };
    expect(() => parseAward(award)).toThrow(/unknown field "note"/);
    const throwing = { wallet: "0xabc", amount: 5, get ref(): string {
      throw new Error("boom");
    } };
    expect(() => parseAward(throwing)).toThrow(HubValidationError);
    expect(() => parseAward(throwing)).toThrow("Invalid award: the award could not be read: boom");
  });
});
