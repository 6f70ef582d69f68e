import { describe, expect, it } from "vitest";
import { awardOutcome, errorFields, parseHttpDate, rateLimitOf, requestIdOf, unwrapBody } from "../../../src/core/answer";

const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers), body });
const EARLIEST = Date.UTC(2024, 0, 1);

const isDuplicate = (given: ReturnType<typeof answer>) => awardOutcome(given) === "duplicate";

describe("awardOutcome: a duplicate by what the hub declares", () => {
  it.each([
    ["a 2xx flag", answer(200, { duplicate: true })],
    ["a replayed flag one envelope deep", answer(200, { data: { replayed: true } })],
    ["snake_case", answer(201, { idempotent_replayed: true })],
    ["Stripe's replay header", answer(200, { id: "x" }, { "idempotent-replayed": "true" })],
    ["208 Already Reported", answer(208, {})],
    ["a 409 problem type", answer(409, { type: "https://hub.example/problems/duplicate-ref", title: "Conflict" })],
    ["a flat 409 code", answer(409, { code: "ref_already_used", message: "ref already exists" })],
    ["a 422 code one level down", answer(422, { error: { code: "ref_already_credited", message: "This ref was already credited" } })],
    ["a 2xx status field", answer(200, { status: "already_processed", id: 7 })],
    ["a 400 naming a duplicate", answer(400, { code: "duplicate" })],
    ["a message alone", answer(422, { error: { message: "ref 7 was already credited" } })],
  ])("%s is a duplicate", (_name, given) => {
    expect(isDuplicate(given)).toBe(true);
  });

  it.each([
    ["a plain 2xx", answer(200, { duplicate: false, ok: true }), "applied"],
    ["a conflict: the ref went with another award", answer(409, { type: "https://hub.example/problems/ref-conflict", detail: "ref already used by another award" }), "conflict"],
    ["different parameters", answer(409, { code: "duplicate_ref_mismatch", message: "ref reused" }), "conflict"],
    ["a 2xx status field naming no duplicate", answer(200, { status: "applied" }), "applied"],
    ["a 409 that names nothing", answer(409, { title: "Conflict" }), "conflict"],
    ["a 400 that names nothing", answer(400, { title: "Bad Request" }), "refused"],
    ["a replay header that is not true", answer(200, {}, { "idempotent-replayed": "false" }), "applied"],
  ])("%s is not", (_name, given, outcome) => {
    expect(awardOutcome(given)).toBe(outcome);
  });
});

describe("awardOutcome: statuses and wording", () => {
  it.each([
    ["a 500 with a duplicate flag", answer(500, { duplicate: true }), "unknown"],
    ["a 408", answer(408, { code: "duplicate" }), "unknown"],
    ["a 300 with a duplicate flag", answer(300, { duplicate: true }), "refused"],
    ["a 409 conflict with a replay header", answer(409, { code: "ref_conflict" }, { "idempotent-replayed": "true" }), "conflict"],
    ["a 199 with a replay header", answer(199, {}, { "idempotent-replayed": "true" }), "refused"],
    ["a 401 saying duplicate", answer(401, { message: "duplicate signature" }), "refused"],
    ["a 403 saying already used", answer(403, "key already used elsewhere"), "refused"],
  ])("%s is no duplicate", (_name, given, outcome) => {
    expect(awardOutcome(given)).toBe(outcome);
  });

  it("the award's own values are taken out of the hub's words, wherever they stand", () => {
    const award = { wallet: "0xabc", amount: 1, reason: "replay bonus", ref: "duplicate-7" };
    expect(awardOutcome(answer(409, { code: "invalid_amount", message: "ref duplicate-7 refused" }), { award })).toBe("conflict");
    expect(awardOutcome(answer(400, { message: "ref DUPLICATE-7 for a replay bonus refused" }), { award })).toBe("refused");
    expect(awardOutcome(answer(400, { message: "ref duplicate-7 already exists" }), { award })).toBe("duplicate");
    expect(awardOutcome(answer(409, { type: "https://hub.example/problems/ref-other-award", detail: "ref dup-1 already exists" }), { award })).toBe("conflict");
  });

  it("a 2xx up to 299 flags a duplicate; a status's name (Conflict) is no word of the hub's own", () => {
    expect(isDuplicate(answer(299, { replayed: true }))).toBe(true);
    expect(awardOutcome(answer(409, "409 Conflict: ref r-1 already exists"), { award: { ref: "r-1" } })).toBe("duplicate");
    expect(awardOutcome(answer(422, { title: "Conflict", type: "https://hub.example/problems/duplicate-ref" }))).toBe("duplicate");
  });
});

describe("errorFields: problem details and the common shapes name their fields", () => {
  it("RFC 9457 errors[] of pointer and detail", () => {
    expect(errorFields({ type: "https://h/invalid-award", title: "Bad Request", detail: "amount out of range", errors: [{ pointer: "#/amount", detail: "number in (0, 1e6]" }] })).toEqual({
      code: "https://h/invalid-award",
      message: "amount out of range",
      issues: [{ path: ["amount"], message: "number in (0, 1e6]", code: "invalid" }],
    });
  });

  it("invalid-params of name and reason; JSON:API source.pointer; Stripe's param; FastAPI's loc", () => {
    expect(errorFields({ title: "t", "invalid-params": [{ name: "wallet", reason: "empty" }] }).issues).toEqual([{ path: ["wallet"], message: "empty", code: "invalid" }]);
    expect(errorFields({ errors: [{ code: "blank", detail: "is blank", source: { pointer: "/data/attributes/reason" } }] }).issues).toEqual([{ path: ["data", "attributes", "reason"], message: "is blank", code: "blank" }]);
    expect(errorFields({ error: { code: "parameter_invalid", message: "Bad amount", param: "amount" } }).issues).toEqual([{ path: ["amount"], message: "Bad amount", code: "parameter_invalid" }]);
    expect(errorFields({ detail: [{ loc: ["body", "amount"], msg: "must be positive", type: "value_error" }] }).issues).toEqual([{ path: ["amount"], message: "must be positive", code: "value_error" }]);
  });
});

describe("requestIdOf", () => {
  it.each([
    [{ "request-id": "a" }, "a"],
    [{ "x-request-id": "b" }, "b"],
    [{ "x-amzn-requestid": "c" }, "c"],
    [{ "x-ms-request-id": "d" }, "d"],
    [{ "request-id": "first", "x-request-id": "second" }, "first"],
    [{ "x-other": "e" }, undefined],
  ])("%j → %s", (headers, expected) => {
    expect(requestIdOf(new Headers(headers))).toBe(expected);
  });
});

describe("rateLimitOf: the fields of each standard, in the server's time", () => {
  const now = Date.UTC(2026, 10, 26, 12);
  // The server's clock is 10 s behind this machine's: its times fall 10 s later here.
  const behind = { localTime: (serverMs: number) => serverMs + 10_000 };
  const of = (headers: Record<string, string>) => rateLimitOf(new Headers(headers), behind, now);

  it("the IETF structured fields: seconds from the answer", () => {
    expect(of({ "ratelimit-policy": '"default";q=20;w=1', ratelimit: '"default";r=0;t=1' })).toEqual({ retryAt: undefined, remaining: 0, resetAt: now + 1_000 });
  });

  it("the older RateLimit-* and the X-RateLimit-* fields, a reset as an epoch time in seconds or milliseconds", () => {
    expect(of({ "ratelimit-limit": "20", "ratelimit-remaining": "5", "ratelimit-reset": "2" })).toEqual({ retryAt: undefined, remaining: 5, resetAt: now + 2_000 });
    expect(of({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now / 1000 + 3) })).toMatchObject({ remaining: 0, resetAt: now + 13_000 });
    expect(of({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now + 3_000) })).toMatchObject({ remaining: 0, resetAt: now + 13_000 });
  });

  it("Retry-After: seconds from the answer, or an HTTP date in the server's time; junk is left out", () => {
    expect(of({ "retry-after": "4", "x-ratelimit-remaining": "0", "x-ratelimit-reset": "9" }).retryAt).toBe(now + 4_000);
    expect(of({ "retry-after": new Date(now + 30_000).toUTCString() }).retryAt).toBe(now + 40_000);
    expect(of({ ratelimit: "garbage", "x-ratelimit-remaining": "-1", "retry-after": "soon" })).toEqual({ retryAt: undefined, remaining: undefined, resetAt: undefined });
  });
});

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

describe("each reading at its limits: a duplicate's words, a request id's header name, the fields' numbers, field paths", () => {
  it("a duplicate's words in a text body; a flag on an error answer is no duplicate; the replay header is exactly true", () => {
    expect(isDuplicate(answer(409, "ref r-1 already exists"))).toBe(true);
    expect(isDuplicate(answer(409, { duplicate: true }))).toBe(false);
    expect(isDuplicate(answer(304, { duplicate: true }))).toBe(false);
    expect(isDuplicate(answer(200, {}, { "idempotent-replayed": " TRUE " }))).toBe(true);
    for (const value of ["truex", "xtrue", "tr ue", ""]) expect(isDuplicate(answer(200, {}, { "idempotent-replayed": value }))).toBe(false);
    expect(isDuplicate(answer(409, { title: "Duplicate" }))).toBe(true);
  });

  it("a request id's header name must end in request-id", () => {
    expect(requestIdOf(new Headers({ "x-request-identity": "z" }))).toBeUndefined();
    expect(requestIdOf(new Headers({ "x-requestid": "y" }))).toBe("y");
  });

  it("numbers of the rate-limit fields: decimals read, anything else left out", () => {
    const now = Date.UTC(2026, 10, 26, 12);
    const same = { localTime: (serverMs: number) => serverMs };
    expect(rateLimitOf(new Headers({ "ratelimit-remaining": " 5.5 ", "ratelimit-reset": "2" }), same, now)).toMatchObject({ remaining: 5.5, resetAt: now + 2_000 });
    for (const junk of ["5.x", "5abc", "x5", "5."]) expect(rateLimitOf(new Headers({ "x-ratelimit-remaining": junk }), same, now).remaining).toBeUndefined();
    expect(rateLimitOf(new Headers({ ratelimit: '"d";r=2.5;t=1' }), same, now)).toMatchObject({ remaining: 2.5, resetAt: now + 1_000 });
  });

  it("field paths: a pointer with or without #, a dotted name; an entry without a field is no issue", () => {
    const pathsOf = (body: unknown) => errorFields(body).issues.map((issue) => issue.path);
    expect(pathsOf({ errors: [{ pointer: "/amount", detail: "d" }, { pointer: "#/a/b", detail: "d" }, { field: "x.y", message: "m" }] })).toEqual([["amount"], ["a", "b"], ["x", "y"]]);
    expect(pathsOf({ errors: [{ detail: "no field" }] })).toEqual([]);
    expect(errorFields({ errors: [{ detail: "no field" }] }).message).toBe("no field");
    expect(errorFields({ error: { message: "m", param: "amount" } }).issues).toEqual([{ path: ["amount"], message: "m", code: "invalid" }]);
    // Stripe's one field is an entry: named without a reason, it is no issue (as any entry).
    expect(errorFields({ error: { param: "amount" } }).issues).toEqual([]);
  });
});

describe("unwrapBody: the envelope's key, and nothing else", () => {
  it("the payload under the key; the body as it is without the key, for a non-object, or with no key given", () => {
    expect(unwrapBody({ data: { a: 1 }, meta: {} }, "data")).toEqual({ a: 1 });
    expect(unwrapBody({ data: null }, "data")).toBeNull();
    expect(unwrapBody({ other: 1 }, "data")).toEqual({ other: 1 });
    expect(unwrapBody(["a"], "0")).toEqual(["a"]);
    expect(unwrapBody({ data: 1 }, undefined)).toEqual({ data: 1 });
    expect(unwrapBody("text", "length")).toBe("text");
  });
});

describe("unwrapBody: a body without the envelope key, and any body when no key is set", () => {
  it("keeps a body without the envelope key, and any body when no key is set", () => {
    expect(unwrapBody({ id: 1 }, "data")).toEqual({ id: 1 });
    expect(unwrapBody({ data: { id: 2 } }, undefined)).toEqual({ data: { id: 2 } });
    expect(unwrapBody("text", "data")).toBe("text");
    expect(unwrapBody({ data: { id: 3 } }, "data")).toEqual({ id: 3 });
  });
});

describe("unwrapBody without an envelope key", () => {
  it("returns the body as it is, even one with a field named undefined", () => {
    const body = { undefined: { id: 1 }, name: "Alpha Hub" };
    expect(unwrapBody(body, undefined)).toBe(body);
    expect(unwrapBody(body, "undefined")).toEqual({ id: 1 });
  });
});

describe("awardOutcome: a unique index's words, and what is not one", () => {
  it("a unique constraint on the ref is a duplicate; 'unique' alone names no ref", () => {
    expect(awardOutcome(answer(400, { detail: "UNIQUE constraint failed: award.ref" }))).toBe("duplicate");
    expect(awardOutcome(answer(400, "wallet must be unique"))).toBe("refused");
    expect(awardOutcome(answer(422, { ref: ["has already been taken"] }))).toBe("duplicate");
  });
});
