import { describe, expect, it } from "vitest";
import { extractErrorFields } from "../../../src/core/http/error-body";

describe("extractErrorFields", () => {
  it.each([
    ["flat", { code: "bad_sig", message: "Bad signature" }, { code: "bad_sig", message: "Bad signature" }],
    ["nested", { error: { code: "bad_sig", message: "Bad signature" } }, { code: "bad_sig", message: "Bad signature" }],
    ["error code + message", { error: "bad_sig", message: "Bad signature" }, { code: "bad_sig", message: "Bad signature" }],
    ["error as sentence", { error: "Bad signature, try again" }, { code: undefined, message: "Bad signature, try again" }],
    ["problem details", { type: "https://e.x/bad-sig", title: "Unauthorized", detail: "Bad signature" }, { code: "https://e.x/bad-sig", message: "Bad signature" }],
    ["errors array", { errors: [{ code: "E1", message: "first" }, { message: "second" }] }, { code: "E1", message: "first" }],
    ["numeric code", { code: 4011, message: "Nope" }, { code: "4011", message: "Nope" }],
    ["OAuth style", { error: "invalid_client", error_description: "Unknown client" }, { code: "invalid_client", message: "Unknown client" }],
    ["nothing useful", { oops: 1 }, { code: undefined, message: undefined }],
  ])("%s", (_name, body, expected) => {
    expect(extractErrorFields(body)).toEqual(expected);
  });

  it.each([null, "text", 42, [1, 2]])("non-object %j gives nothing", (body) => {
    expect(extractErrorFields(body)).toEqual({});
  });

  it.each([
    ["blank code and message", { code: " ", message: "" }, { code: undefined, message: undefined }],
    ["a blank code falls through to error_code", { code: "", error_code: "E42", message: "m" }, { code: "E42", message: "m" }],
    ["a blank message falls through to detail", { message: "  ", detail: "the detail" }, { code: undefined, message: "the detail" }],
    ["blank nested fields fall back to the top level", { error: { code: "\t", message: " " }, code: "top", message: "top message" }, { code: "top", message: "top message" }],
    ["a blank error string", { error: "  " }, { code: undefined, message: undefined }],
    ["the nested object wins over the top level", { error: { code: "inner", message: "inner m" }, code: "outer", message: "outer m" }, { code: "inner", message: "inner m" }],
    ["errors[0] must be an object", { errors: ["text"], code: "c" }, { code: "c", message: undefined }],
    ["errors must be an array", { errors: { 0: { code: "inner" } }, code: "c" }, { code: "c", message: undefined }],
    ["a numeric error is neither code nor message", { error: 42 }, { code: undefined, message: undefined }],
    ["a sentence in error is a message, not a code", { error: "not allowed" }, { code: undefined, message: "not allowed" }],
    ["dots and dashes make a code", { error: "auth.bad-sig" }, { code: "auth.bad-sig", message: "auth.bad-sig" }],
    ["a numeric code yields to a string one", { code: 7, error_code: "E7" }, { code: "E7", message: undefined }],
    ["a numeric nested code", { error: { code: 401 } }, { code: "401", message: undefined }],
    ["an error array is not an object", { error: ["x"], message: "m" }, { code: undefined, message: "m" }],
  ])("%s", (_name, body, expected) => {
    expect(extractErrorFields(body)).toEqual(expected);
  });

  it("ignores the RFC 9457 default type about:blank as a code", () => {
    expect(extractErrorFields({ type: "about:blank", title: "Unauthorized", status: 401 })).toEqual({ code: undefined, message: "Unauthorized" });
  });
});
