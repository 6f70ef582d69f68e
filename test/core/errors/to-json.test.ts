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
import { BrowserNotAllowedError, CampaignStoppedError, RefConflictError, type CampaignSummary } from "public-hub-sdk/server";

const apiInit = { status: 400, code: "bad", message: "400: bad", body: { secretish: "body" }, headers: { "x-request-id": "req_1", "set-cookie": "s=1" }, mayHaveBeenApplied: true };
const summary: CampaignSummary = { total: 2, applied: 1, wouldSend: 0, skipped: 0, failed: [], dryRun: false };
const issues = [{ path: ["amount"], code: "too_small", message: "amount must be greater than 0" }];

// Every class, built from one init object, with the fields it declares beyond name and message.
// `body` and `headers` are declared by HubApiError but never serialized (size, cookies).
const cases: Array<[string, HubError, Record<string, unknown>]> = [
  ["HubError", new HubError({ message: "m", mayHaveBeenApplied: true }), { mayHaveBeenApplied: true }],
  ["HubApiError", new HubApiError({ ...apiInit, status: 409 }), { status: 409, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["BadRequestError", new BadRequestError(apiInit), { status: 400, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["UnauthorizedError", new UnauthorizedError({ ...apiInit, status: 401 }), { status: 401, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["ForbiddenError", new ForbiddenError({ ...apiInit, status: 403 }), { status: 403, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["NotFoundError", new NotFoundError({ ...apiInit, status: 404 }), { status: 404, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["RateLimitError", new RateLimitError({ ...apiInit, status: 429, retryAfter: 7 }), { status: 429, code: "bad", requestId: "req_1", retryAfter: 7, mayHaveBeenApplied: true }],
  ["ServerError", new ServerError({ ...apiInit, status: 502 }), { status: 502, code: "bad", requestId: "req_1", mayHaveBeenApplied: true }],
  ["HubConnectionError", new HubConnectionError({ message: "m", code: "ECONNRESET", origin: "https://h.test", mayHaveBeenApplied: true }), { code: "ECONNRESET", origin: "https://h.test", mayHaveBeenApplied: true }],
  ["HubTimeoutError", new HubTimeoutError({ timeout: 50, origin: "https://h.test" }), { code: "ETIMEDOUT", origin: "https://h.test", timeout: 50, mayHaveBeenApplied: false }],
  ["HubAbortError", new HubAbortError({ cause: "stop", mayHaveBeenApplied: true }), { mayHaveBeenApplied: true }],
  ["HubRedirectError", new HubRedirectError({ status: 307, location: "https://e.test/x", reason: "why" }), { status: 307, location: "https://e.test/x", mayHaveBeenApplied: false }],
  ["HubValidationError", new HubValidationError({ what: "award", issues }), { issues, mayHaveBeenApplied: false }],
  [
    "HubResponseError",
    new HubResponseError({ status: 200, problem: "schema-mismatch", body: { a: 1 }, bodyExcerpt: '{"a":1}', detail: "d", issues }),
    { status: 200, problem: "schema-mismatch", bodyExcerpt: '{"a":1}', issues, mayHaveBeenApplied: false },
  ],
  ["BrowserNotAllowedError", new BrowserNotAllowedError(), { mayHaveBeenApplied: false }],
  ["RefConflictError", new RefConflictError({ ref: "r1", firstSeenIn: "journal" }), { ref: "r1", firstSeenIn: "journal", mayHaveBeenApplied: false }],
  [
    "CampaignStoppedError",
    new CampaignStoppedError({ reason: "401 invalid_signature", failures: 10, summary, cause: new Error("refused") }),
    { reason: "401 invalid_signature", failures: 10, summary, mayHaveBeenApplied: false },
  ],
];

describe("every error class takes one init object and serializes every field it declares", () => {
  it.each(cases)("%s", (name, error, fields) => {
    expect(error.name).toBe(name);
    expect(error.toJSON()).toEqual({ name, message: error.message, ...fields });
    // Through JSON too, as a logger would write it.
    expect(JSON.parse(JSON.stringify(error))).toEqual(JSON.parse(JSON.stringify({ name, message: error.message, ...fields })));
  });

  it.each(cases)("%s: no own field is left out but body and headers", (_name, error) => {
    const declared = Object.keys(error).filter((field) => field !== "body" && field !== "headers" && (error as unknown as Record<string, unknown>)[field] !== undefined);
    expect(Object.keys(error.toJSON())).toEqual(expect.arrayContaining(declared));
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
