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

  it("ignores the RFC 9457 default type about:blank as a code", () => {
    expect(extractErrorFields({ type: "about:blank", title: "Unauthorized", status: 401 })).toEqual({ code: undefined, message: "Unauthorized" });
  });
});
