// The default answers of popular hub frameworks, read right (issue 35's findings): each failed on
// the reading before it.
import { describe, expect, it } from "vitest";
import { errorFields, rateLimitOf, readError, requestIdOf } from "../../../src/core/answer";

const localClock = { localTime: (ms: number) => ms };

describe("error bodies of the popular frameworks", () => {
  it("a GraphQL-style error gives its extensions' code", () => {
    const body = { errors: [{ message: "Award refused", extensions: { code: "BAD_USER_INPUT" } }] };
    expect(errorFields(body)).toEqual({ code: "BAD_USER_INPUT", message: "Award refused", issues: [] });
  });

  it("a NestJS 400 says its listed messages, not 'Bad Request' twice", () => {
    const body = { message: ["amount must be a positive number", "wallet should not be empty"], error: "Bad Request", statusCode: 400 };
    const error = readError(new Response(null, { status: 400, statusText: "Bad Request" }), JSON.stringify(body), "", false, undefined, errorFields);
    expect(error.message).toBe("400 Bad Request: amount must be a positive number; wallet should not be empty");
    expect(error.detail).toBe("amount must be a positive number; wallet should not be empty");
  });

  it("a FastAPI 422 says each field once: its issues are the message", () => {
    const body = { detail: [{ type: "greater_than", loc: ["body", "amount"], msg: "Input should be greater than 0", input: 0, ctx: { gt: 0 } }] };
    const error = readError(new Response(null, { status: 422, statusText: "Unprocessable Entity" }), JSON.stringify(body), " (1 attempt)", false, undefined, errorFields);
    expect(error.message).toBe("422 Unprocessable Entity [greater_than]: amount: Input should be greater than 0 (1 attempt)");
    expect(error.issues).toEqual([{ path: ["amount"], message: "Input should be greater than 0", code: "greater_than" }]);
  });

  it("x-correlation-id is the request id when no request-id header is there", () => {
    expect(requestIdOf(new Headers({ "x-correlation-id": "c-1" }))).toBe("c-1");
    expect(requestIdOf(new Headers({ "x-correlation-id": "c-1", "x-request-id": "r-1" }))).toBe("r-1");
  });
});

describe("rate-limit headers of the popular frameworks", () => {
  it("express-rate-limit's draft-7 RateLimit dictionary: remaining and reset", () => {
    const headers = new Headers({ "ratelimit-policy": "20;w=1", ratelimit: "limit=20, remaining=19, reset=1" });
    expect(rateLimitOf(headers, localClock, 1_000)).toEqual({ retryAt: undefined, remaining: 19, resetAt: 2_000 });
  });

  it("the newer drafts' item keeps its r and t; a key is whole (limit= is no t=, remaining= no r=)", () => {
    expect(rateLimitOf(new Headers({ ratelimit: '"default";r=3;t=2' }), localClock, 0)).toMatchObject({ remaining: 3, resetAt: 2_000 });
    expect(rateLimitOf(new Headers({ ratelimit: "limit=20, remaining=0, reset=4" }), localClock, 0)).toMatchObject({ remaining: 0, resetAt: 4_000 });
    expect(rateLimitOf(new Headers({ ratelimit: "quota=20;xr=5;xt=9" }), localClock, 0)).toMatchObject({ remaining: undefined, resetAt: undefined });
  });
});
