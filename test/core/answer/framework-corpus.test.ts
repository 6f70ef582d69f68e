// Answers recorded from the real frameworks (scripts/record-framework-answers.mjs writes
// test/fixtures/framework-answers.json), each read as a person reading it would (issue 35, item 5).
import { describe, expect, it } from "vitest";
import corpus from "../../fixtures/framework-answers.json";
import { isDuplicate, rateLimitOf, readError } from "../../../src/core/answer";

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
const error = (answer: Recorded) => readError(new Response(null, { status: answer.status, headers: answer.headers }), answer.body, "", false);

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

  it("a ConflictException: the status's phrase is no code, and its message is never read as a duplicate", () => {
    const answer = find("@nestjs/core", "ConflictException 409");
    expect(error(answer)).toMatchObject({ code: undefined, detail: "ref already used", message: "409: ref already used" });
    expect(isDuplicate({ status: answer.status, headers: new Headers(answer.headers), body: JSON.parse(answer.body) })).toBe(false);
  });

  it("its 404", () => {
    expect(error(find("@nestjs/core", "no such route"))).toMatchObject({ name: "NotFoundError", code: undefined, detail: "Cannot GET /api/v1/nope" });
  });
});

describe("Hono", () => {
  it("text answers: the text is the message, never a duplicate", () => {
    expect(error(find("hono", "no such route"))).toMatchObject({ name: "NotFoundError", code: undefined, message: "404: 404 Not Found" });
    const conflict = find("hono", "HTTPException 409");
    expect(error(conflict)).toMatchObject({ code: undefined, message: "409: ref already used" });
    expect(isDuplicate({ status: 409, headers: new Headers(conflict.headers), body: conflict.body })).toBe(false);
  });
});
