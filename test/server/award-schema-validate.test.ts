import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { HubValidationError } from "public-hub-sdk";
import { text, validate } from "../../src/server/award-schema";

const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as HubValidationError;
  }
  throw new Error("expected a HubValidationError");
};

describe("validate", () => {
  const schema = z.strictObject({ name: text("name"), inner: z.optional(z.strictObject({ size: z.number() })) });

  it("returns the caller's object itself, not zod's copy", () => {
    const input = { name: "a", inner: { size: 1 } };
    expect(validate(schema, input, "thing")).toBe(input);
  });

  it("throws HubValidationError with zod's path, code and message, naming what was checked", () => {
    const error = errorOf(() => validate(schema, { name: 1 }, "thing"));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["name"], code: "invalid_type", message: "name must be a string" }]);
    expect(error.message).toBe("Invalid thing: name: name must be a string");
  });

  it("gives one issue per unknown key, at the key, also inside a nested object", () => {
    const error = errorOf(() => validate(schema, { name: "a", x: 1, y: 2, inner: { size: 1, z: 3 } }, "thing"));
    expect(error.issues.map(({ path, code }) => [path, code])).toEqual([
      [["inner", "z"], "unrecognized_keys"],
      [["x"], "unrecognized_keys"],
      [["y"], "unrecognized_keys"],
    ]);
  });

  it("keeps no value: an issue has path, code and message only", () => {
    const error = errorOf(() => validate(schema, { name: 7, inner: { size: "SECRET-VALUE" } }, "thing"));
    for (const issue of error.issues) expect(Object.keys(issue).sort()).toEqual(["code", "message", "path"]);
    expect(JSON.stringify(error) + error.message).not.toContain("SECRET-VALUE");
  });
});

describe("text", () => {
  it.each([
    ["an empty string", ""],
    ["blanks", " \t\n"],
  ])("refuses %s as too_small, naming the field", (_name, value) => {
    const result = text("wallet").safeParse(value);
    expect(result.error?.issues).toEqual([expect.objectContaining({ code: "too_small", message: "wallet must not be empty" })]);
  });

  it("accepts a string with content and leaves it as given", () => {
    expect(text("wallet").parse("  0xabc ")).toBe("  0xabc ");
  });
});

describe("text()'s type message", () => {
  it("says the named field must be a string when it is not one", () => {
    const result = text("wallet").safeParse(42);
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((issue) => issue.message)).toEqual(["wallet must be a string"]);
  });
});
