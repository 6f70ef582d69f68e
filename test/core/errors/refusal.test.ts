import { describe, expect, it } from "vitest";
import { BadRequestError, ForbiddenError, HubApiError, HubConnectionError, HubTimeoutError, NotFoundError, UnauthorizedError } from "public-hub-sdk";
import type { SigningDiagnostics } from "public-hub-sdk/server";
import { awardPath, CAMPAIGN_DEFAULTS, clockOffsetOf, refusalKind, SIGNATURE_WINDOW_SECONDS, type RefusalKind } from "public-hub-sdk/server";
import { systemicCause } from "../../../src/core/errors";

const signing: SigningDiagnostics = { timestamp: "1700000000", method: "POST", path: "/api/v1/hub/alpha/bits/earn", bodySha256: "ab".repeat(32), clockOffsetMs: 0 };
const classes: Record<number, typeof HubApiError> = { 400: BadRequestError, 401: UnauthorizedError, 403: ForbiddenError, 404: NotFoundError };
const refusal = (status: number, code?: string, message = `${status} refused`) =>
  new (classes[status] ?? HubApiError)({ status, code, message, body: {}, headers: {} });

// Each refusal, what it is about, as the client, a campaign and the CLI all read it.
const table: Array<[string, number, string | undefined, string | undefined, RefusalKind | undefined]> = [
  ["an unknown key", 401, "invalid_api_key", undefined, "key"],
  ["an unknown key, said in words (Hono's text)", 401, undefined, "401: Invalid API key", "key"],
  ["a 401 naming the key and the signature", 401, "invalid_api_key", "key or signature refused", "credentials"],
  ["a 401 that names nothing", 401, undefined, "401: Unauthorized", "credentials"],
  ["a refused signature under 401", 401, "invalid_signature", undefined, "credentials"],
  ["a refused signature under 400", 400, "invalid_signature", undefined, "credentials"],
  ["a refused timestamp under 403", 403, "timestamp_out_of_window", undefined, "credentials"],
  ["a 400 naming the signature in its message only", 400, undefined, "400: bad signature", "credentials"],
  ["a key of another hub", 403, "forbidden", undefined, "scope"],
  ["no such hub", 404, "hub_not_found", undefined, "not-found"],
  ["a bad award", 400, "invalid_award", undefined, "request"],
  ["a bad award under 422 (FastAPI, Rails)", 422, "missing", "422: wallet: Field required", "request"],
  ["a 409 naming the timestamp", 409, "timestamp_conflict", undefined, undefined],
  ["a 503 naming the signature service", 503, "signature_service_unavailable", undefined, undefined],
  ["a 429", 429, undefined, undefined, undefined],
];

describe("one classification of refusals, used alike by the client and by campaigns", () => {
  it.each(table)("%s", (_name, status, code, message, kind) => {
    const error = refusal(status, code, message);
    expect(refusalKind(error)).toBe(kind);
    // A campaign: an early stop for what no later award escapes.
    expect(systemicCause(error) !== undefined).toBe(kind === "key" || kind === "credentials" || kind === "scope" || kind === "not-found");
  });

  it("a campaign's stop names the cause the classification found", () => {
    expect(systemicCause(refusal(403, "timestamp_out_of_window"))).toBe("403 timestamp_out_of_window: the signature or timestamp was refused after the clock correction");
    expect(systemicCause(refusal(403, "forbidden"))).toBe("403 forbidden: the key is scoped to another hub, or the signature was refused");
    expect(systemicCause(refusal(401, "invalid_api_key"))).toBe("401 invalid_api_key: the hub refused the API key (x-api-key): it is unknown, revoked or not this hub's");
  });
});

describe("a dead address stops a campaign too (issue 23), in the same classification", () => {
  it.each(["ECONNREFUSED", "ENOTFOUND", "ERR_BAD_PORT", "CERT_HAS_EXPIRED"])("%s is systemic, naming the origin", (code) => {
    expect(systemicCause(new HubConnectionError({ message: "m", code, origin: "http://127.0.0.1:9" }))).toBe(
      `${code}: the server at http://127.0.0.1:9 cannot be reached (nothing listens there, the host does not resolve, or its certificate is refused)`,
    );
  });

  it("a reset, a timeout or a connection error without a code is one award's", () => {
    expect(systemicCause(new HubConnectionError({ message: "m", code: "ECONNRESET", origin: "http://h.test" }))).toBeUndefined();
    expect(systemicCause(new HubTimeoutError({ timeout: 10, origin: "http://h.test" }))).toBeUndefined();
    expect(systemicCause(new HubConnectionError())).toBeUndefined();
  });
});

describe("the other decisions the CLI takes from the SDK", () => {
  it("awardPath: the path an award is sent to and signed with, as the client builds it", () => {
    expect(awardPath({ baseUrl: "https://hub.example.com", hub: "alpha" })).toBe("/api/v1/hub/alpha/bits/earn");
    expect(awardPath({ baseUrl: "https://proxy.example.com/mount/v1/", hub: "café/1" })).toBe("/mount/v1/hub/caf%C3%A9%2F1/bits/earn");
  });

  it("clockOffsetOf: the middle of the Date's second; nothing from a cached copy or no Date", () => {
    const now = Date.parse("2026-11-23T10:00:00.000Z");
    expect(clockOffsetOf(new Headers({ date: "Mon, 23 Nov 2026 10:00:10 GMT" }), now)).toBe(10_500);
    expect(clockOffsetOf(new Headers({ date: "Mon, 23 Nov 2026 10:00:10 GMT", age: "0" }), now)).toBeUndefined();
    expect(clockOffsetOf(new Headers({ date: "soon" }), now)).toBeUndefined();
  });

  it("clockOffsetOf reads Date as the client does (parseHttpDate): no time from a 0 or a date of 1970", () => {
    const now = Date.parse("2026-11-23T10:00:00.000Z");
    // Date.parse reads "0" as the year 2000 and "1." as 2001: junk, not a skew of 26 years.
    expect(clockOffsetOf(new Headers({ date: "0" }), now)).toBeUndefined();
    expect(clockOffsetOf(new Headers({ date: "1." }), now)).toBeUndefined();
    expect(clockOffsetOf(new Headers({ date: "Thu, 01 Jan 1970 00:00:00 GMT" }), now)).toBeUndefined();
  });

  it("the window and the campaign defaults are the documented numbers", () => {
    expect(SIGNATURE_WINDOW_SECONDS).toBe(300);
    expect(CAMPAIGN_DEFAULTS).toEqual({ concurrency: 16, maxFailures: 10, outageTimeout: 60_000 });
  });
});
