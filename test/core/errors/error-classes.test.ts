import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ForbiddenError,
  HubAbortError,
  HubApiError,
  HubConnectionError,
  HubError,
  HubRedirectError,
  HubResponseError,
  HubTimeoutError,
  HubValidationError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "public-hub-sdk";
import { apiErrorFromResponse } from "../../../src/core/errors/api-error-from-response";

const init = (status: number, headers: Record<string, string> = {}) => ({ status, code: "c", message: `${status} m`, body: { b: 1 }, headers });

describe("apiErrorFromResponse picks the class by status", () => {
  it.each([
    [400, BadRequestError, "BadRequestError"],
    [401, UnauthorizedError, "UnauthorizedError"],
    [403, ForbiddenError, "ForbiddenError"],
    [404, NotFoundError, "NotFoundError"],
    [429, RateLimitError, "RateLimitError"],
    [500, ServerError, "ServerError"],
    [503, ServerError, "ServerError"],
    [599, ServerError, "ServerError"],
  ] as const)("%i → %s", (status, ErrorClass, name) => {
    const error = apiErrorFromResponse(init(status));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(name);
  });

  it.each([409, 418, 422, 499])("%i → a plain HubApiError", (status) => {
    const error = apiErrorFromResponse(init(status));
    expect(error.constructor).toBe(HubApiError);
    expect(error.name).toBe("HubApiError");
  });

  it("keeps status, code, body, headers and the request id", () => {
    const error = apiErrorFromResponse(init(404, { "x-request-id": "req_1", date: "d" }));
    expect(error).toMatchObject({ status: 404, code: "c", message: "404 m", body: { b: 1 }, headers: { "x-request-id": "req_1", date: "d" }, requestId: "req_1" });
    expect(error.mayHaveBeenApplied).toBe(false);
    expect(apiErrorFromResponse({ ...init(502), mayHaveBeenApplied: true }).mayHaveBeenApplied).toBe(true);
  });

  it("a 429 reads its Retry-After", () => {
    expect((apiErrorFromResponse(init(429, { "retry-after": "12" })) as RateLimitError).retryAfter).toBe(12);
    expect((apiErrorFromResponse(init(429)) as RateLimitError).retryAfter).toBeUndefined();
  });
});

describe("the other errors' messages and fields", () => {
  it("toJSON leaves out the fields a class does not have", () => {
    expect(Object.keys(new HubError({ message: "x" }).toJSON())).toEqual(["name", "message", "mayHaveBeenApplied"]);
    expect(Object.keys(new HubConnectionError({ message: "x", origin: "https://h.test" }).toJSON())).toEqual(["name", "message", "mayHaveBeenApplied", "origin"]);
  });

  it("HubError keeps a cause only when there is one", () => {
    expect(new HubError({ message: "a", cause: 0 }).cause).toBe(0);
    expect("cause" in new HubError({ message: "a" })).toBe(false);
    expect(new HubError({ message: "a", mayHaveBeenApplied: true }).mayHaveBeenApplied).toBe(true);
  });

  it("HubRedirectError names the status and the location, or says it was opaque", () => {
    const redirect = new HubRedirectError({ status: 307, location: "https://e.test/x", reason: "why" });
    expect(redirect.message).toBe("Not following the 307 redirect to https://e.test/x: why.");
    expect(redirect).toMatchObject({ name: "HubRedirectError", status: 307, location: "https://e.test/x" });
    expect(new HubRedirectError({ status: 0, location: undefined, reason: "hidden" }).message).toBe("Not following the opaque redirect: hidden.");
  });

  it("HubConnectionError has a default message and keeps code and origin", () => {
    expect(new HubConnectionError().message).toBe("Connection error: the request got no HTTP response.");
    expect(new HubConnectionError({ message: "m", code: "EPIPE", origin: "https://h.test" })).toMatchObject({ name: "HubConnectionError", code: "EPIPE", origin: "https://h.test" });
  });

  it("HubTimeoutError names the origin, or the API when it has none", () => {
    expect(new HubTimeoutError({ timeout: 5 }).message).toBe("Request to the API timed out after 5 ms.");
    expect(new HubTimeoutError({ timeout: 5, origin: "https://h.test" })).toMatchObject({ message: "Request to https://h.test timed out after 5 ms.", code: "ETIMEDOUT", timeout: 5 });
  });

  it("HubAbortError says the caller aborted and keeps the reason", () => {
    const error = new HubAbortError({ cause: "stop" });
    expect(error).toMatchObject({ name: "HubAbortError", message: "Request aborted by the caller.", cause: "stop" });
  });

  it("HubResponseError says what is wrong with which answer", () => {
    const error = new HubResponseError({ status: 200, problem: "invalid-json", body: "x", bodyExcerpt: "x", detail: "expected JSON" });
    expect(error.message).toBe("Unusable 200 response (invalid-json): expected JSON");
    expect(error.issues).toEqual([]);
  });

  it("HubValidationError lists every issue, with its path when it has one", () => {
    const error = new HubValidationError({
      what: "award",
      issues: [
        { path: [], code: "invalid_type", message: "an award must be an object" },
        { path: ["a", 0], code: "c", message: "m" },
      ],
    });
    expect(error.message).toBe("Invalid award: an award must be an object; a.0: m");
  });
});
