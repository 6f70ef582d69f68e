import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { assertNoIssues, isLimit, isNonEmpty, isSlug, isWallet, issuesOf, satisfies } from "../../src/core/checks";

describe("input checks", () => {
  it.each([
    ["a number", 1, { code: "invalid_type", message: "hub slug must be a string" }],
    ["an empty string", "", { code: "too_small", message: "hub slug must not be empty" }],
    ["blanks", " \t", { code: "too_small", message: "hub slug must not be empty" }],
    [".", ".", { code: "custom", message: 'hub slug must not be "." or ".."' }],
    ["..", "..", { code: "custom", message: 'hub slug must not be "." or ".."' }],
    ["a slug", "alpha", undefined],
    ["three dots", "...", undefined],
  ])("isSlug: %s", (_name, value, expected) => {
    expect(isSlug(value)).toEqual(expected);
  });

  it("isWallet names the wallet", () => {
    expect(isWallet("..")).toEqual({ code: "custom", message: 'wallet must not be "." or ".."' });
    expect(isWallet("0xabc")).toBeUndefined();
  });

  it("isNonEmpty checks only type and blankness", () => {
    expect(isNonEmpty("method")(null)).toEqual({ code: "invalid_type", message: "method must be a string" });
    expect(isNonEmpty("method")(" ")).toEqual({ code: "too_small", message: "method must not be empty" });
    expect(isNonEmpty("method")("..")).toBeUndefined();
  });

  it.each([
    ["a string", "5", { code: "invalid_type", message: "limit must be a finite number" }],
    ["NaN", Number.NaN, { code: "invalid_type", message: "limit must be a finite number" }],
    ["Infinity", Number.POSITIVE_INFINITY, { code: "invalid_type", message: "limit must be a finite number" }],
    ["1.5", 1.5, { code: "invalid_type", message: "limit must be an integer" }],
    ["0", 0, { code: "too_small", message: "limit must be greater than 0" }],
    ["-3", -3, { code: "too_small", message: "limit must be greater than 0" }],
    ["1", 1, undefined],
    ["1000", 1000, undefined],
  ])("isLimit: %s", (_name, value, expected) => {
    expect(isLimit(value)).toEqual(expected);
  });

  it("satisfies: the message when the test fails, with invalid_format unless told", () => {
    const startsWithSlash = satisfies((v) => String(v).startsWith("/"), "must start with /");
    expect(startsWithSlash("x")).toEqual({ code: "invalid_format", message: "must start with /" });
    expect(startsWithSlash("/x")).toBeUndefined();
    expect(satisfies(() => false, "no", "custom")(1)).toEqual({ code: "custom", message: "no" });
  });

  it("issuesOf: none, or one at the path (the value itself by default)", () => {
    expect(issuesOf(isLimit, 5, ["limit"])).toEqual([]);
    expect(issuesOf(isLimit, 0, ["limit"])).toEqual([{ path: ["limit"], code: "too_small", message: "limit must be greater than 0" }]);
    expect(issuesOf(isLimit, 0)).toEqual([{ path: [], code: "too_small", message: "limit must be greater than 0" }]);
  });

  it("assertNoIssues throws a HubValidationError naming every issue, and nothing when there is none", () => {
    expect(() => assertNoIssues("query", [])).not.toThrow();
    const issues = [
      { path: ["limit"], code: "too_small", message: "limit must be greater than 0" },
      { path: ["wallet"], code: "too_small", message: "wallet must not be empty" },
    ];
    expect(() => assertNoIssues("query", issues)).toThrow(new HubValidationError("query", issues));
    expect(() => assertNoIssues("query", issues)).toThrow("Invalid query: limit: limit must be greater than 0; wallet: wallet must not be empty");
  });
});
