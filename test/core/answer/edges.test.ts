import { describe, expect, it } from "vitest";
import { HubConnectionError, RateLimitError } from "public-hub-sdk";
import { errorFields, isDuplicate, parseHttpDate, rateLimitOf, readError, requestIdOf, unwrapBody } from "../../../src/core/answer";
import { BrowserNotAllowedError, systemicCause } from "../../../src/core/errors";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers), body });
const EARLIEST = Date.UTC(2024, 0, 1);

describe("dates and request ids", () => {
  it("a date without a letter is no date, even one Date.parse reads as a plausible year", () => {
    expect(parseHttpDate("2030")).toBeUndefined();
    expect(parseHttpDate("2030-01-01")).toBeUndefined();
    expect(parseHttpDate("2030-01-01T00:00:00Z")).toBe(Date.UTC(2030, 0, 1));
  });

  it("X-Request-Id wins over any other header ending in requestid, whatever their order", () => {
    expect(requestIdOf(new Headers({ "x-amzn-requestid": "amzn_1", "x-request-id": "req_1" }))).toBe("req_1");
    expect(requestIdOf(new Headers({ "a-request-id": "a_1", "request-id": "req_2" }))).toBe("req_2");
    expect(requestIdOf(new Headers({ "x-amzn-requestid": "amzn_1" }))).toBe("amzn_1");
  });
});

describe("rate-limit fields", () => {
  const same = { localTime: (serverMs: number) => serverMs };
  const none = { retryAt: undefined, remaining: undefined, resetAt: undefined };

  it("no rate-limit header reads as nothing, not as zero", () => {
    expect(rateLimitOf(new Headers(), same, EARLIEST)).toStrictEqual(none);
  });

  it("unreadable values are left out", () => {
    const fields = rateLimitOf(new Headers({ "x-ratelimit-remaining": "many", "x-ratelimit-reset": "soon", "retry-after": "-1" }), same, EARLIEST);
    expect(fields).toStrictEqual(none);
  });

  it("a reset in seconds with several decimals is read whole", () => {
    expect(rateLimitOf(new Headers({ "ratelimit-reset": " 1.25 " }), same, EARLIEST).resetAt).toBe(EARLIEST + 1_250);
    expect(rateLimitOf(new Headers({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": "2.75" }), same, EARLIEST)).toStrictEqual({ retryAt: undefined, remaining: 0, resetAt: EARLIEST + 2_750 });
  });

  it("a small reset is seconds from the answer, whatever the clock says", () => {
    const ahead = { localTime: (serverMs: number) => serverMs - 90_000 };
    expect(rateLimitOf(new Headers({ "x-ratelimit-reset": "30" }), ahead, EARLIEST + 3_600_000).resetAt).toBe(EARLIEST + 3_630_000);
  });

  it("a reset at exactly the earliest plausible date is an epoch time in seconds; in milliseconds too", () => {
    expect(rateLimitOf(new Headers({ "x-ratelimit-reset": String(EARLIEST / 1000) }), same, EARLIEST - 5_000).resetAt).toBe(EARLIEST);
    expect(rateLimitOf(new Headers({ "x-ratelimit-reset": String(EARLIEST) }), same, EARLIEST - 5_000).resetAt).toBe(EARLIEST);
    expect(rateLimitOf(new Headers({ "x-ratelimit-reset": String(EARLIEST + 7) }), same, EARLIEST).resetAt).toBe(EARLIEST + 7);
  });
});

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
      message: "taken",
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
    const error = readError(new Response(null, { status: 422 }), JSON.stringify(body), " (1 attempt)", false);
    expect(error.message).toBe("422 [invalid_award]: too big (amount: too big; ref: taken) (1 attempt)");
  });

  it("a 429 without Retry-After has no retry delay", () => {
    const error = readError(new Response(null, { status: 429 }), "{}", "", false);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBeUndefined();
  });

  it("a 429's wait, as the call read it from whichever header, is the error's retryAfterMs", () => {
    const error = readError(new Response(null, { status: 429, headers: { "x-ratelimit-remaining": "0" } }), "{}", "", false, 3_000);
    expect((error as RateLimitError).retryAfterMs).toBe(3000);
  });
});

describe("isDuplicate: statuses and wording", () => {
  it.each([
    ["a 500 with a duplicate flag", answer(500, { duplicate: true })],
    ["a 300 with a duplicate flag", answer(300, { duplicate: true })],
    ["a 409 conflict with a replay header", answer(409, { code: "ref_conflict" }, { "idempotent-replayed": "true" })],
    ["a 199 with a replay header", answer(199, {}, { "idempotent-replayed": "true" })],
  ])("%s is not a duplicate", (_name, given) => {
    expect(isDuplicate(given)).toBe(false);
  });

  it("the code and the message are read as separate words: another award is a conflict", () => {
    expect(isDuplicate(answer(409, { code: "duplicate", message: "another award holds this ref" }))).toBe(false);
    expect(isDuplicate(answer(409, { code: "duplicate", message: "this ref was seen" }))).toBe(true);
  });

  it("a 299 with a flag is still a 2xx", () => {
    expect(isDuplicate(answer(299, { replayed: true }))).toBe(true);
  });
});

describe("unwrapBody", () => {
  it("keeps a body without the envelope key, and any body when no key is set", () => {
    expect(unwrapBody({ id: 1 }, "data")).toEqual({ id: 1 });
    expect(unwrapBody({ data: { id: 2 } }, undefined)).toEqual({ data: { id: 2 } });
    expect(unwrapBody("text", "data")).toBe("text");
    expect(unwrapBody({ data: { id: 3 } }, "data")).toEqual({ id: 3 });
  });
});

describe("errors", () => {
  it("a browser refusal without a hint ends with its advice", () => {
    expect(new BrowserNotAllowedError().message).toBe(
      "public-hub-sdk/server does not run in a browser: signing awards needs the API secret, and the secret must stay on your server. Award points from your backend and call it from the page.",
    );
    expect(new BrowserNotAllowedError({ hint: "Pass dangerouslyAllowBrowser." }).message).toMatch(/from the page\. Pass dangerouslyAllowBrowser\.$/);
  });

  it("an unreachable server without an origin is named the base URL", () => {
    expect(systemicCause(new HubConnectionError({ code: "ECONNREFUSED" }))).toBe(
      "ECONNREFUSED: the server at the base URL cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)",
    );
    expect(systemicCause(new HubConnectionError({ code: "ENOTFOUND", origin: "https://hub.example" }))).toBe(
      "ENOTFOUND: the server at https://hub.example cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)",
    );
  });
});
