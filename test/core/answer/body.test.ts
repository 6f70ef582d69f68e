import { afterEach, describe, expect, it, vi } from "vitest";
import type { HubResponseError } from "public-hub-sdk";
import { decodeBody, errorFields, excerpt, parseHttpDate, rateLimitOf } from "../../../src/core/answer";
import type { StandardSchemaV1 } from "../../../src/core/types/standard-schema";

afterEach(() => {
  vi.useRealTimers();
});

describe("body helpers", () => {
  it("an excerpt is one line, trimmed, with runs of whitespace as one space", () => {
    expect(excerpt("  <h1>\r\n  Bad\t\tGateway </h1>\n")).toBe("<h1> Bad Gateway </h1>");
  });

  it("an excerpt keeps 200 characters and marks the cut", () => {
    expect(excerpt("a".repeat(200))).toBe("a".repeat(200));
    expect(excerpt("a".repeat(201))).toBe(`${"a".repeat(200)}…`);
  });

  it("an unusable body is kept whole up to 4096 characters, then cut and counted", () => {
    const kept = (text: string) => (() => { try { decodeBody({ status: 200, headers: new Headers(), text, applied: false }, "object"); } catch (error) { return (error as HubResponseError).body; } })();
    expect(kept("b".repeat(4096))).toBe("b".repeat(4096));
    expect(kept("b".repeat(5000))).toBe(`${"b".repeat(4096)}… (5000 characters in all)`);
  });
});

describe("errorFields", () => {
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
    expect(errorFields(body)).toEqual({ ...expected, issues: [] });
  });

  it.each([null, "text", 42, [1, 2]])("non-object %j gives nothing", (body) => {
    expect(errorFields(body)).toEqual({ issues: [] });
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
    expect(errorFields(body)).toEqual({ ...expected, issues: [] });
  });

  it("ignores the RFC 9457 default type about:blank as a code", () => {
    expect(errorFields({ type: "about:blank", title: "Unauthorized", status: 401 })).toEqual({ code: undefined, message: "Unauthorized", issues: [] });
  });
});


describe("Retry-After, as rateLimitOf reads it", () => {
  const now = Date.parse("2026-11-22T10:00:00Z");
  const same = { localTime: (serverMs: number) => serverMs };
  const retryAt = (value: string) => rateLimitOf(new Headers({ "retry-after": value }), same, now).retryAt;

  it.each([
    ["120", 120],
    ["0", 0],
    ["1.25", 1.25],
    [" 7 ", 7],
  ])("delta-seconds %j is %d s from the answer", (value, seconds) => {
    expect(retryAt(value)).toBe(now + seconds * 1000);
  });

  it.each(["", "   ", "soon", "5x", "x5", "-3", "1.", "12 34", "May"])("%j is unreadable: undefined", (value) => {
    expect(retryAt(value)).toBeUndefined();
  });

  it("an HTTP date is that instant of the server's clock, to the millisecond", () => {
    expect(retryAt("Sun, 22 Nov 2026 10:00:30 GMT")).toBe(now + 30_000);
  });

  it.each(["Sunday, 22-Nov-26 10:00:30 GMT", "2026-11-22T10:00:30Z"])("the obsolete RFC 850 form and an ISO date-time are read too: %j", (value) => {
    expect(retryAt(value)).toBe(now + 30_000);
  });

  it("the asctime form (no zone: local time) is read as a date", () => {
    expect(retryAt("Sun Nov 22 10:00:30 2026")).toBe(new Date(2026, 10, 22, 10, 0, 30).getTime());
  });

  it("uses the current time by default", () => {
    vi.useFakeTimers({ toFake: ["Date"], now });
    expect(rateLimitOf(new Headers({ "retry-after": "60" }), same).retryAt).toBe(now + 60_000);
  });
});

describe("decodeBody", () => {
  const raw = (text: string, headers: Record<string, string> = {}) => ({ status: 200, headers: new Headers(headers), text, applied: false });
  const failure = (decode: () => unknown) => {
    try {
      decode();
    } catch (error) {
      return error as HubResponseError;
    }
    return expect.unreachable() as never;
  };

  it("names a missing content-type", async () => {
    const error = failure(() => decodeBody(raw("nope"), "object"));
    expect(error.message).toBe("Unusable 200 response (invalid-json): expected JSON, got no content-type: nope");
    expect(error.body).toBe("nope");
    expect(error.issues).toEqual([]);
  });

  it("names the content-type it got", async () => {
    const error = failure(() => decodeBody(raw("<p>", { "content-type": "text/html" }), "object"));
    expect(error.message).toBe("Unusable 200 response (invalid-json): expected JSON, got text/html: <p>");
  });

  it("says which shapes a list accepts, and keeps the parsed value", async () => {
    const error = failure(() => decodeBody(raw("3"), "object-or-array"));
    expect(error.message).toBe("Unusable 200 response (unexpected-shape): expected a JSON object or array: 3");
    expect(error.body).toBe(3);
    expect((failure(() => decodeBody(raw("[]"), "object"))).message).toBe("Unusable 200 response (unexpected-shape): expected a JSON object: []");
    expect(await decodeBody(raw("[1]"), "object-or-array")).toEqual([1]);
    expect(await decodeBody(raw('{"a":1}'), "write")).toEqual({ a: 1 });
  });

  it("an empty write answer is {} (checked by its schema in checkBody); an empty read answer is an error", async () => {
    expect(await decodeBody(raw(" "), "write")).toEqual({});
    const error = failure(() => decodeBody(raw(""), "object"));
    expect(error.message).toBe("Unusable 200 response (empty-body): the server sent no body");
    expect(error.problem).toBe("empty-body");
  });
});

describe("parseHttpDate: only a plausible date is a time", () => {
  it.each([
    ["an HTTP date", "Wed, 21 Oct 2026 07:28:00 GMT", Date.UTC(2026, 9, 21, 7, 28)],
    ["an ISO date with its T", "2026-10-21T07:28:00Z", Date.UTC(2026, 9, 21, 7, 28)],
    ["the first plausible instant", "Mon, 01 Jan 2024 00:00:00 GMT", Date.UTC(2024, 0, 1)],
  ])("%s is read", (_name, value, expected) => {
    expect(parseHttpDate(value)).toBe(expected);
  });

  it.each([
    ["a bare year (Date.parse would read 2026)", "2026"],
    ["a date without a letter", "2026-10-21"],
    ["0", "0"],
    ["a second before 2024", "Sun, 31 Dec 2023 23:59:59 GMT"],
    ["words", "soon"],
    ["null", null],
    ["undefined", undefined],
  ])("%s is no time", (_name, value) => {
    expect(parseHttpDate(value)).toBeUndefined();
  });
});
