import { describe, expect, it } from "vitest";
import {
  BadRequestError,
  ConflictError,
  UnprocessableEntityError,
  ForbiddenError,
  HubAbortError,
  HubApiError,
  HubConnectionError,
  HubError,
  HubRedirectError,
  HubResponseError,
  HubSchemaError,
  HubTimeoutError,
  HubValidationError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnauthorizedError,
} from "public-hub-sdk";
import { BrowserNotAllowedError, CampaignStoppedError, RefConflictError, type CampaignSummary } from "public-hub-sdk/server";
import { apiError, systemicCause } from "../../../src/core/errors";

const init = (status: number, headers: Record<string, string> = {}) => ({ status, code: "c", message: `${status} m`, body: { b: 1 }, headers });

describe("apiError picks the class by status", () => {
  it.each([
    [400, BadRequestError, "BadRequestError"],
    [401, UnauthorizedError, "UnauthorizedError"],
    [403, ForbiddenError, "ForbiddenError"],
    [404, NotFoundError, "NotFoundError"],
    [409, ConflictError, "ConflictError"],
    [422, UnprocessableEntityError, "UnprocessableEntityError"],
    [429, RateLimitError, "RateLimitError"],
    [500, ServerError, "ServerError"],
    [503, ServerError, "ServerError"],
    [599, ServerError, "ServerError"],
  ] as const)("%i → %s", (status, ErrorClass, name) => {
    const error = apiError(init(status));
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error.name).toBe(name);
  });

  it.each([402, 418, 423, 499])("%i → a plain HubApiError", (status) => {
    const error = apiError(init(status));
    expect(error.constructor).toBe(HubApiError);
    expect(error.name).toBe("HubApiError");
  });

  it("keeps status, code, body, headers and the request id", () => {
    const error = apiError({ ...init(404, { "x-request-id": "req_1", date: "d" }), requestId: "req_1" });
    expect(error).toMatchObject({ status: 404, code: "c", message: "404 m", body: { b: 1 }, headers: { "x-request-id": "req_1", date: "d" }, requestId: "req_1" });
    expect(error.mayHaveBeenApplied).toBe(false);
    expect(apiError({ ...init(502), mayHaveBeenApplied: true }).mayHaveBeenApplied).toBe(true);
  });

  it("a 429 keeps the Retry-After read from its answer", () => {
    expect((apiError({ ...init(429, { "retry-after": "12" }), retryAfterMs: 12_000 }) as RateLimitError).retryAfterMs).toBe(12_000);
    expect((apiError(init(429)) as RateLimitError).retryAfterMs).toBeUndefined();
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
    expect(new HubConnectionError().message).toBe("Connection error: no HTTP response.");
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

describe("the messages of a browser refusal and of an unreachable server", () => {
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

const apiInit = { status: 400, code: "bad", message: "400: bad", body: { secretish: "body" }, headers: { "x-request-id": "req_1", "set-cookie": "s=1" }, requestId: "req_1", mayHaveBeenApplied: true };
const summary: CampaignSummary = { total: 2, applied: 1, duplicates: 0, wouldSend: 0, skipped: 0, failed: [], mismatched: [], dryRun: false };
const inFlight = [{ index: 1, award: { wallet: "0xabc", amount: 1, reason: "r", ref: "r2" }, mayHaveBeenApplied: true }];
const issues = [{ path: ["amount"], code: "too_small", message: "amount must be greater than 0" }];

// Every class, built from one init object, with the fields it declares beyond name and message.
// `body` and `headers` are declared by HubApiError but never serialized (size, cookies).
const cases: Array<[string, HubError, Record<string, unknown>]> = [
  ["HubError", new HubError({ message: "m", mayHaveBeenApplied: true }), { mayHaveBeenApplied: true }],
  ["HubApiError", new HubApiError({ ...apiInit, status: 409 }), { status: 409, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["BadRequestError", new BadRequestError(apiInit), { status: 400, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["UnauthorizedError", new UnauthorizedError({ ...apiInit, status: 401 }), { status: 401, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["ForbiddenError", new ForbiddenError({ ...apiInit, status: 403 }), { status: 403, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["NotFoundError", new NotFoundError({ ...apiInit, status: 404 }), { status: 404, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["RateLimitError", new RateLimitError({ ...apiInit, status: 429, retryAfterMs: 7_000 }), { status: 429, code: "bad", issues: [], requestId: "req_1", retryAfterMs: 7_000, mayHaveBeenApplied: true }],
  ["ServerError", new ServerError({ ...apiInit, status: 502 }), { status: 502, code: "bad", issues: [], requestId: "req_1", mayHaveBeenApplied: true }],
  ["HubConnectionError", new HubConnectionError({ message: "m", code: "ECONNRESET", origin: "https://h.test", mayHaveBeenApplied: true }), { code: "ECONNRESET", origin: "https://h.test", mayHaveBeenApplied: true }],
  ["HubTimeoutError", new HubTimeoutError({ timeout: 50, origin: "https://h.test" }), { code: "ETIMEDOUT", origin: "https://h.test", timeout: 50, mayHaveBeenApplied: false }],
  ["HubAbortError", new HubAbortError({ cause: "stop", mayHaveBeenApplied: true }), { mayHaveBeenApplied: true }],
  ["HubRedirectError", new HubRedirectError({ status: 307, location: "https://e.test/x", reason: "why" }), { status: 307, location: "https://e.test/x", mayHaveBeenApplied: false }],
  ["HubRedirectError", new HubRedirectError({ status: 308, location: undefined, reason: "why", mayHaveBeenApplied: true }), { status: 308, mayHaveBeenApplied: true }],
  ["HubValidationError", new HubValidationError({ what: "award", issues }), { issues, mayHaveBeenApplied: false }],
  [
    "HubResponseError",
    new HubResponseError({ status: 200, problem: "schema-mismatch", body: { a: 1 }, bodyExcerpt: '{"a":1}', detail: "d", issues }),
    { status: 200, problem: "schema-mismatch", bodyExcerpt: '{"a":1}', issues, mayHaveBeenApplied: false },
  ],
  [
    "HubResponseError",
    new HubResponseError({ status: 201, problem: "invalid-json", body: "<html>", bodyExcerpt: "<html>", detail: "d", mayHaveBeenApplied: true }),
    { status: 201, problem: "invalid-json", bodyExcerpt: "<html>", issues: [], mayHaveBeenApplied: true },
  ],
  [
    // `data` is the answer as the server sent it (declared, so carried); `body`, the same value, is not.
    "HubSchemaError",
    new HubSchemaError({ operation: "award", status: 200, data: { applied: "yes" }, issues, applied: true, bodyExcerpt: '{"applied":"yes"}' }),
    { operation: "award", status: 200, problem: "schema-mismatch", applied: true, bodyExcerpt: '{"applied":"yes"}', issues, mayHaveBeenApplied: true },
  ],
  ["BrowserNotAllowedError", new BrowserNotAllowedError(), { mayHaveBeenApplied: false }],
  ["BrowserNotAllowedError", new BrowserNotAllowedError({ hint: "(a hint)" }), { mayHaveBeenApplied: false }],
  ["RefConflictError", new RefConflictError({ ref: "r1", firstSeenIn: "journal" }), { ref: "r1", firstSeenIn: "journal", mayHaveBeenApplied: false }],
  [
    "CampaignStoppedError",
    new CampaignStoppedError({ reason: "401 invalid_signature", failures: 10, summary, cause: new Error("refused") }),
    { reason: "401 invalid_signature", failures: 10, summary, inFlight: [], mayHaveBeenApplied: false },
  ],
  [
    "CampaignStoppedError",
    new CampaignStoppedError({ reason: "401 invalid_signature", failures: 10, summary, cause: new Error("refused"), inFlight }),
    { reason: "401 invalid_signature", failures: 10, summary, inFlight, mayHaveBeenApplied: true },
  ],
  ["CampaignStoppedError", CampaignStoppedError.aborted({ summary, cause: "Ctrl-C", inFlight }), { reason: "aborted", failures: 0, summary, inFlight, mayHaveBeenApplied: true }],
];

describe("every error class takes one init object and serializes every field it declares", () => {
  it.each(cases)("%s", (name, error, fields) => {
    expect(error.name).toBe(name);
    expect(error.toJSON()).toEqual({ name, message: error.message, ...fields });
    // Through JSON too, as a logger would write it.
    expect(JSON.parse(JSON.stringify(error))).toEqual(JSON.parse(JSON.stringify({ name, message: error.message, ...fields })));
  });

  it.each(cases)("%s: no own field is left out but the answer's body, headers and decoded data", (_name, error) => {
    const declared = Object.keys(error).filter((field) => !["body", "headers", "data"].includes(field) && (error as unknown as Record<string, unknown>)[field] !== undefined);
    expect(Object.keys(error.toJSON())).toEqual(expect.arrayContaining(declared));
    expect(error.toJSON()).not.toHaveProperty("data");
  });

  it("a call's attempts (set on the error by the pipeline) are carried", () => {
    const error = new ServerError({ ...apiInit, status: 503 });
    (error as { attempts?: number }).attempts = 3;
    expect(error.toJSON()).toMatchObject({ attempts: 3 });
    expect(JSON.parse(JSON.stringify(error)).attempts).toBe(3);
  });

  it("the messages name the hint and the abort; a schema error's names the operation", () => {
    expect(new BrowserNotAllowedError({ hint: "(a hint)" }).message).toMatch(/ \(a hint\)$/);
    expect(CampaignStoppedError.aborted({ summary, cause: "Ctrl-C", inFlight }).message).toBe("campaign aborted: 1 applied, 0 skipped, 0 failed of 2 read; 1 award in flight may have been applied: a run again (with the same journal) settles them through their ref");
    expect(new HubSchemaError({ operation: "award", status: 200, data: {}, issues, applied: true, bodyExcerpt: "{}" }).message).toMatch(/^Unusable 200 response \(schema-mismatch\): the award answer does not fit its schema/);
  });

  it("a refused write's signing diagnostics are carried, its body and headers never", () => {
    const error = new UnauthorizedError({ ...apiInit, status: 401 });
    const signing = { timestamp: "1", method: "POST", path: "/api/v1/hub/a/bits/earn", bodySha256: "ab", clockOffsetMs: 0 };
    Object.defineProperty(error, "signing", { value: signing, enumerable: true });
    const json = error.toJSON();
    expect(json.signing).toEqual(signing);
    expect(JSON.stringify(json)).not.toContain("set-cookie");
    expect(JSON.stringify(json)).not.toContain("secretish");
  });
});
