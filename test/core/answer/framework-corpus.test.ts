// Answers recorded from the real frameworks (scripts/record-framework-answers.mjs writes
// test/fixtures/framework-answers.json), each read as a person reading it would (issue 35, item 5).
import { describe, expect, it } from "vitest";
import corpus from "../../fixtures/framework-answers.json";
import { awardOutcome, errorFields, rateLimitOf, readError } from "../../../src/core/answer";
import { refusalKind } from "../../../src/core/errors";

type Recorded = (typeof corpus.answers)[number];
const localClock = { localTime: (ms: number) => ms };
const find = (framework: string, name: string): Recorded => {
  const found = corpus.answers.find((answer) => answer.framework.startsWith(framework) && answer.name === name);
  if (!found) throw new Error(`no recorded answer "${name}" of ${framework}: run scripts/record-framework-answers.mjs`);
  return found;
};
const limits = (answer: Recorded) => {
  const receivedAt = Date.parse(answer.headers.date!);
  const fields = rateLimitOf(new Headers(answer.headers), localClock, receivedAt);
  const inSeconds = (at: number | undefined) => (at === undefined ? undefined : (at - receivedAt) / 1000);
  return { remaining: fields.remaining, resetIn: inSeconds(fields.resetAt), retryIn: inSeconds(fields.retryAt) };
};
const error = (answer: Recorded) => readError(new Response(null, { status: answer.status, headers: answer.headers }), answer.body, "", false, undefined, errorFields);

describe("express-rate-limit, in each header mode: what is left, and when", () => {
  it.each(["draft-6", "draft-7", "draft-8"])("%s: one left of two, a minute to the reset; the 429 asks for the minute", (mode) => {
    expect(limits(find(`express-rate-limit@7.5.1 ${mode}`, "read, one left"))).toEqual({ remaining: 1, resetIn: 60, retryIn: undefined });
    const refused = find(`express-rate-limit@7.5.1 ${mode}`, "over the limit");
    expect(limits(refused)).toEqual({ remaining: 0, resetIn: 60, retryIn: 60 });
    expect(error(refused)).toMatchObject({ name: "RateLimitError", code: undefined, message: "429: Too many requests, please try again later." });
  });

  it("legacy X-RateLimit-*: the reset an epoch time in seconds, within the minute", () => {
    const { remaining, resetIn } = limits(find("express-rate-limit@7.5.1 legacy", "read, one left"));
    expect(remaining).toBe(1);
    expect(resetIn).toBeGreaterThan(58);
    expect(resetIn).toBeLessThanOrEqual(61);
  });
});

describe("Fastify 5 and @fastify/rate-limit", () => {
  it("a schema's refusal: its code and message, and the limit's headers", () => {
    const answer = find("fastify", "validation error");
    expect(error(answer)).toMatchObject({ name: "BadRequestError", code: "FST_ERR_VALIDATION", detail: "body must have required property 'wallet'" });
    expect(limits(answer)).toEqual({ remaining: 1, resetIn: 60, retryIn: undefined });
  });

  it("its 404 and its 429: the message, no code from the status's phrase", () => {
    expect(error(find("fastify", "no such route"))).toMatchObject({ name: "NotFoundError", code: undefined, detail: "Route GET:/api/v1/nope not found" });
    const refused = find("fastify", "over the limit");
    expect(error(refused)).toMatchObject({ name: "RateLimitError", code: undefined, detail: "Rate limit exceeded, retry in 1 minute" });
    expect(limits(refused)).toEqual({ remaining: 0, resetIn: 60, retryIn: 60 });
  });
});

describe("NestJS 11", () => {
  it("ValidationPipe's 400: its listed messages, once each", () => {
    expect(error(find("@nestjs/core", "ValidationPipe 400"))).toMatchObject({
      name: "BadRequestError",
      code: undefined,
      detail: "wallet should not be empty; wallet must be a string; amount must be a positive number",
    });
  });

  it("a ConflictException: the status's phrase is no code; its own words say the ref is used, the award's values taken out", () => {
    const answer = find("@nestjs/core", "ConflictException 409");
    expect(error(answer)).toMatchObject({ code: undefined, detail: "ref already used", message: "409: ref already used" });
    const read = { status: answer.status, headers: new Headers(answer.headers), body: JSON.parse(answer.body) };
    expect(awardOutcome(read, { award: { wallet: "0xa", amount: 1, ref: "season-7" } })).toBe("duplicate");
    // The same words, all of them the award's own: nothing of the hub's is left.
    expect(awardOutcome(read, { award: { ref: "x", reason: "Already used" } })).toBe("conflict");
  });

  it("its 404", () => {
    expect(error(find("@nestjs/core", "no such route"))).toMatchObject({ name: "NotFoundError", code: undefined, detail: "Cannot GET /api/v1/nope" });
  });
});

describe("Hono", () => {
  it("text answers: the text is the message; a ref already used, in the hub's words, is a duplicate", () => {
    expect(error(find("hono", "no such route"))).toMatchObject({ name: "NotFoundError", code: undefined, message: "404: 404 Not Found" });
    const conflict = find("hono", "HTTPException 409");
    expect(error(conflict)).toMatchObject({ code: undefined, message: "409: ref already used" });
    expect(awardOutcome({ status: 409, headers: new Headers(conflict.headers), body: conflict.body }, { award: { ref: "r-1" } })).toBe("duplicate");
  });
});

describe("every recorded hub on a unique index: one ref, one credit, by the answers as sent", () => {
  const recorded = (name: string) => corpus.answers.filter((answer) => answer.name === name);
  const read = (answer: Recorded) => ({ status: answer.status, headers: new Headers(answer.headers), body: /json/.test(answer.headers["content-type"] ?? "") ? JSON.parse(answer.body) : answer.body });
  const award = { wallet: "0x00000000000000000000000000000000000000a1", amount: 10, reason: "quest", ref: "rec-1" };

  it("a reused ref, the same award or another amount, is a duplicate on DRF, FastAPI, Flask and Hono", () => {
    const reused = [...recorded("ref reused, same award"), ...recorded("ref reused, other amount")];
    expect(new Set(reused.map((answer) => answer.framework.split("@")[0]))).toEqual(new Set(["djangorestframework", "fastapi", "flask", "hono"]));
    for (const answer of reused) expect([answer.framework, awardOutcome(read(answer), { award })]).toEqual([answer.framework, "duplicate"]);
  });

  it("a field error is refused, its issues naming the field (DRF's lists, FastAPI's loc, zod-validator's issues); an HTML one is named by its title", () => {
    for (const answer of [...recorded("field error (bad wallet)"), ...recorded("fractional amount")].filter((a) => a.status >= 400)) {
      const error = readError(new Response(null, { status: answer.status }), answer.body, "", false, undefined, errorFields);
      expect([answer.framework, awardOutcome(read(answer), { award })]).toEqual([answer.framework, "refused"]);
      if (/html/.test(answer.headers["content-type"] ?? "")) expect(error.message).toBe(`${answer.status}: HTML page "${/<title>([^<]*)/.exec(answer.body)![1]}"`);
      else expect(error.issues.map((issue) => issue.path.join("."))).toEqual([answer.name === "fractional amount" ? "amount" : "wallet"]);
    }
  });

  it("a refused key is the key's refusal where the hub's words name the key (Werkzeug's default 401 names nothing); a refused signature the credentials'", () => {
    const kind = (answer: Recorded) => refusalKind({ status: answer.status, ...errorFields(read(answer).body), ...(typeof read(answer).body === "string" && { message: answer.body }) });
    for (const answer of recorded("unknown key")) expect([answer.framework, kind(answer)]).toEqual([answer.framework, /api key/i.test(answer.body) ? "key" : "credentials"]);
    expect(recorded("unknown key").filter((answer) => kind(answer) === "key")).toHaveLength(3);
    for (const answer of recorded("bad signature")) expect([answer.framework, kind(answer)]).toEqual([answer.framework, "credentials"]);
  });
});
