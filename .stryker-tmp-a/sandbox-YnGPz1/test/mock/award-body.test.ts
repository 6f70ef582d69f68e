// @ts-nocheck
import { describe, expect, it } from "vitest";
import { readAwardBody } from "../../src/mock/award-body";

describe("the mock's reading of an award body", () => {
  it.each([
    ["the amount shape", { wallet: "w", amount: 2, reason: "q", ref: "r" }, { wallet: "w", amount: 2, reason: "q", ref: "r" }],
    ["no reason", { wallet: "w", amount: 2, ref: "r" }, { wallet: "w", amount: 2, ref: "r" }],
    ["the kind shape", { wallet: "w", kind: "daily-login", ref: "r" }, { wallet: "w", kind: "daily-login", ref: "r" }],
    ["unknown fields dropped", { wallet: "w", amount: 1, ref: "r", extra: 1 }, { wallet: "w", amount: 1, ref: "r" }],
  ])("reads %s", (_name, body, expected) => {
    expect(readAwardBody(body)).toStrictEqual(expected); // no key without a value (the ledger shows these)
  });

  it.each([
    ["a string", "x", "the body must be a JSON object"],
    ["null", null, "the body must be a JSON object"],
    ["an array", [], "the body must be a JSON object"],
    ["a blank wallet", { wallet: " ", amount: 1, ref: "r" }, "wallet must be a non-empty string"],
    ["a numeric wallet", { wallet: 1, amount: 1, ref: "r" }, "wallet must be a non-empty string"],
    ["no ref", { wallet: "w", amount: 1 }, "ref must be a non-empty string"],
    ["both", { wallet: "w", amount: 1, kind: "k", ref: "r" }, "send either amount or kind, not both"],
    ["neither", { wallet: "w", ref: "r" }, "amount or kind is required"],
    ["amount 0", { wallet: "w", amount: 0, ref: "r" }, "amount must be a finite number greater than 0"],
    ["amount -1", { wallet: "w", amount: -1, ref: "r" }, "amount must be a finite number greater than 0"],
    ["amount Infinity", { wallet: "w", amount: Number.POSITIVE_INFINITY, ref: "r" }, "amount must be a finite number greater than 0"],
    ["amount as a string", { wallet: "w", amount: "3", ref: "r" }, "amount must be a finite number greater than 0"],
    ["a blank kind", { wallet: "w", kind: "", ref: "r" }, "kind must be a non-empty string"],
    ["a numeric reason", { wallet: "w", amount: 1, reason: 1, ref: "r" }, "reason must be a string"],
    ["several problems", { wallet: "", amount: 0 }, "wallet must be a non-empty string; ref must be a non-empty string; amount must be a finite number greater than 0"],
  ])("refuses %s", (_name, body, problem) => {
    expect(readAwardBody(body)).toBe(problem);
  });
});
