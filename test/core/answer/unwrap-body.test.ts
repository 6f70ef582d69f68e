import { describe, expect, it } from "vitest";
import { unwrapBody } from "../../../src/core/answer";

describe("unwrapBody reads the envelope's own key only", () => {
  it("an envelope named __proto__ (or constructor) is the body's own key or nothing: never Object.prototype", () => {
    const body = { data: { slug: "alpha" } };
    expect(unwrapBody(body, "__proto__")).toBe(body);
    expect(unwrapBody(body, "constructor")).toBe(body);
    expect(unwrapBody(JSON.parse('{"__proto__": {"slug": "own"}}'), "__proto__")).toEqual({ slug: "own" });
  });
});
