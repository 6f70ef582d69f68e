import { describe, expect, it } from "vitest";
import { excerpt, headersToObject, keptBody, parseJson, readText } from "../../../src/core/http/body";
import { innermostMessage, outcomeUnknown, systemErrorCode } from "../../../src/core/http/delivery";

describe("body helpers", () => {
  it("readText gives the text, or an empty string when the body cannot be read", async () => {
    expect(await readText(new Response("hello"))).toBe("hello");
    const used = new Response("once");
    await used.text();
    expect(await readText(used)).toBe("");
  });

  it("an excerpt is one line, trimmed, with runs of whitespace as one space", () => {
    expect(excerpt("  <h1>\r\n  Bad\t\tGateway </h1>\n")).toBe("<h1> Bad Gateway </h1>");
  });

  it("an excerpt keeps 200 characters and marks the cut", () => {
    expect(excerpt("a".repeat(200))).toBe("a".repeat(200));
    expect(excerpt("a".repeat(201))).toBe(`${"a".repeat(200)}…`);
  });

  it("a kept body is whole up to 4096 characters, then cut and counted", () => {
    expect(keptBody("b".repeat(4096))).toBe("b".repeat(4096));
    expect(keptBody("b".repeat(5000))).toBe(`${"b".repeat(4096)}… (5000 characters in all)`);
  });

  it("parseJson: JSON values, or the text when it is not JSON or blank", () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJson("0")).toEqual({ ok: true, value: 0 });
    expect(parseJson("nope")).toEqual({ ok: false, text: "nope" });
    expect(parseJson(" \n")).toEqual({ ok: false, text: " \n" });
  });

  it("headers become a plain object", () => {
    expect(headersToObject(new Headers({ "X-Request-Id": "r1", Date: "d" }))).toEqual({ "x-request-id": "r1", date: "d" });
  });
});

describe("delivery helpers", () => {
  it("a system code is letters, digits and _, at least 3, starting with a letter", () => {
    expect(systemErrorCode({ code: "EPIPE" })).toBe("EPIPE");
    expect(systemErrorCode({ code: "E1_" })).toBe("E1_");
    for (const code of ["EP", "1ABC", "E-PIPE", "EPIPE!", " EPIPE", 42]) expect(systemErrorCode({ code })).toBeUndefined();
  });

  it("looks at most six levels deep", () => {
    const nest = (depth: number): unknown => (depth === 0 ? { code: "EDEEP" } : { cause: nest(depth - 1) });
    expect(systemErrorCode(nest(5))).toBe("EDEEP");
    expect(systemErrorCode(nest(6))).toBeUndefined();
  });

  it("skips a malformed code to find one deeper; nothing in a string or null", () => {
    expect(systemErrorCode({ code: "x", cause: { code: "ECONNRESET" } })).toBe("ECONNRESET");
    expect(systemErrorCode({ errors: "ECONNRESET" })).toBeUndefined();
    expect(systemErrorCode("ECONNRESET")).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
  });

  it("the innermost message wins, empty messages are skipped, at most six levels deep", () => {
    expect(innermostMessage(new Error("outer", { cause: new Error("inner", { cause: new Error("") }) }))).toBe("inner");
    expect(innermostMessage(new Error("only", { cause: "not an error" }))).toBe("only");
    const nest = (depth: number): Error => (depth === 0 ? new Error("deepest") : new Error(`level ${depth}`, { cause: nest(depth - 1) }));
    expect(innermostMessage(nest(5))).toBe("deepest");
    expect(innermostMessage(nest(6))).toBe("level 1");
    expect(innermostMessage("text")).toBeUndefined();
  });

  it("every query in the message is cut, up to whitespace, a bracket or a quote", () => {
    expect(innermostMessage(new Error('GET https://h.test/a?wallet=0xabc failed (https://h.test/b?x=1) "c?y=2"'))).toBe(
      'GET https://h.test/a?… failed (https://h.test/b?…) "c?…"',
    );
  });

  it.each([
    [500, true],
    [503, true],
    [599, true],
    [408, true],
    [499, false],
    [429, false],
    [404, false],
    [200, false],
  ])("status %i leaves a write's outcome open: %s", (status, open) => {
    expect(outcomeUnknown(status)).toBe(open);
  });
});
