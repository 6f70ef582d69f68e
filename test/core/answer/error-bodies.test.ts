// An error answer's body, read for its code, message and fields (RFC 9457, the common shapes, a
// framework's `loc`), and the SDK error readError makes of it.
import { describe, expect, it } from "vitest";
import { RateLimitError } from "public-hub-sdk";
import { errorFields, readError } from "../../../src/core/answer";

describe("errorFields: the fields an error body names", () => {
  it("a pointer's empty segments are dropped", () => {
    const { issues } = errorFields({ errors: [{ pointer: "/data//amount/", detail: "must be positive", code: "range" }] });
    expect(issues).toEqual([{ path: ["data", "amount"], message: "must be positive", code: "range" }]);
  });

  it("a relative pointer is split at every slash", () => {
    const { issues } = errorFields({ errors: [{ pointer: "items/0", detail: "bad item" }, { pointer: "#/a#/b", detail: "odd" }] });
    expect(issues).toEqual([
      { path: ["items", "0"], message: "bad item", code: "invalid" },
      { path: ["a#", "b"], message: "odd", code: "invalid" },
    ]);
  });

  it("entries that are not objects are skipped, null included", () => {
    expect(errorFields({ errors: [null, "text", 3, { pointer: "/ref", detail: "taken" }], message: "invalid award" })).toEqual({
      code: undefined,
      message: "invalid award", // the first entry is a field's issue, said with the issues, not twice
      issues: [{ path: ["ref"], message: "taken", code: "invalid" }],
    });
  });

  it("a framework's `loc` drops its leading `body`", () => {
    const { issues } = errorFields({ detail: [{ loc: ["body", "amount"], msg: "field required", type: "value_error.missing" }] });
    expect(issues).toEqual([{ path: ["amount"], message: "field required", code: "value_error.missing" }]);
  });

  it("an entry without a field, or without a message, is no issue", () => {
    expect(errorFields({ errors: [{ code: "general", detail: "Something failed" }, { pointer: "/amount", code: "range" }] })).toEqual({
      code: "general",
      message: "Something failed",
      issues: [],
    });
  });
});

describe("readError", () => {
  it("lists every field it names, separated by semicolons", () => {
    const body = { code: "invalid_award", message: "Invalid award", errors: [{ pointer: "/amount", detail: "too big" }, { pointer: "/ref", detail: "taken" }] };
    const error = readError(new Response(null, { status: 422 }), JSON.stringify(body), " (1 attempt)", false, undefined, errorFields);
    expect(error.message).toBe("422 [invalid_award]: Invalid award (amount: too big; ref: taken) (1 attempt)");
  });

  it("a 429 without Retry-After has no retry delay", () => {
    const error = readError(new Response(null, { status: 429 }), "{}", "", false, undefined, errorFields);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeUndefined();
  });

  it("a 429's wait, as the call read it from whichever header, is the error's retryAfterMs", () => {
    const error = readError(new Response(null, { status: 429, headers: { "x-ratelimit-remaining": "0" } }), "{}", "", false, 3_000, errorFields);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });
});

describe("field paths of framework error bodies", () => {
  it("joins a nested FastAPI loc into the field's path, without its body prefix", () => {
    const { issues } = errorFields({ detail: [{ loc: ["body", "reward", "amount"], msg: "must be positive", type: "value_error" }] });
    expect(issues).toEqual([{ path: ["reward", "amount"], message: "must be positive", code: "value_error" }]);
  });
});
