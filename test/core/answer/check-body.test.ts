import { describe, expect, it, vi } from "vitest";
import { HubSchemaError } from "public-hub-sdk";
import { checkBody, type BodyCheck } from "../../../src/core/answer";
import type { StandardSchemaV1 } from "../../../src/core/types/standard-schema";

const failing: StandardSchemaV1<unknown, never> = {
  "~standard": { version: 1, vendor: "test", validate: () => ({ issues: [{ message: "not a hub" }, { message: "bad", path: ["a", { key: 0 }, 2] }, { message: "worse", path: ["a", 0, 2] }] }) },
};
const check = (more: Partial<BodyCheck> = {}): BodyCheck => ({
  operation: "hub",
  schema: failing,
  mode: "throw",
  answer: { status: 200, text: '{"x":1}', headers: new Headers({ "x-request-id": "req_1" }), applied: false },
  warn: vi.fn(),
  ...more,
});

describe("checkBody", () => {
  it("issues name their path, (root) without one, and the key of a path segment object", async () => {
    const error = (await checkBody({ x: 1 }, check()).catch((caught: unknown) => caught)) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(error.message).toBe("Unusable 200 response (schema-mismatch): the hub answer does not fit its schema: (root): not a hub; a.0.2: bad; a.0.2: worse");
    expect(error.issues).toEqual([
      { path: [], message: "not a hub", code: "schema_mismatch" },
      { path: ["a", 0, 2], message: "bad", code: "schema_mismatch" },
      { path: ["a", 0, 2], message: "worse", code: "schema_mismatch" },
    ]);
    expect(error).toMatchObject({ data: { x: 1 }, body: { x: 1 }, bodyExcerpt: '{"x":1}', status: 200 });
  });

  it('"warn": one record per field path, with every rule it broke', async () => {
    const warn = vi.fn();
    expect(await checkBody({ x: 1 }, check({ mode: "warn", warn }))).toEqual({ x: 1 });
    expect(warn.mock.calls).toEqual([
      [{ operation: "hub", path: "(root)", rule: "not a hub", status: 200, requestId: "req_1" }],
      [{ operation: "hub", path: "a.0.2", rule: "bad; worse", status: 200, requestId: "req_1" }],
    ]);
  });

  it("a passing schema's value is what the call gives, in both modes", async () => {
    const schema: StandardSchemaV1<unknown, string> = { "~standard": { version: 1, vendor: "test", validate: async () => ({ value: "parsed" }) } };
    expect(await checkBody({ x: 1 }, check({ schema }))).toBe("parsed");
    expect(await checkBody({ x: 1 }, check({ schema, mode: "warn" }))).toBe("parsed");
  });

  it("a write's misfit says it was applied (its message says so where awards are: test/server/schemas.test.ts)", async () => {
    const error = (await checkBody({}, check({ operation: "award", answer: { status: 200, text: "{}", headers: new Headers(), applied: true } })).catch((caught: unknown) => caught)) as HubSchemaError;
    expect(error).toMatchObject({ applied: true, mayHaveBeenApplied: true, operation: "award" });
  });
});
