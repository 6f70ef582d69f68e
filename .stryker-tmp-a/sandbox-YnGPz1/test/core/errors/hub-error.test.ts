// @ts-nocheck
import { describe, expect, it } from "vitest";
import { HubError, HubTimeoutError, HubValidationError, NotFoundError, RateLimitError } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { SECRET, SIGNING_KEY, serverClient } from "../../helpers/server-client";

const { mock, client } = useHubMock();

describe("JSON.stringify of an error", () => {
  it("keeps name, message, status, code and requestId", async () => {
    const error = await client({ hub: "nope" }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: "NotFoundError",
      message: '404 Not Found [hub_not_found]: No hub "nope".',
      status: 404,
      code: "hub_not_found",
      detail: 'No hub "nope".',
      issues: [],
      requestId: "req_mock_000001",
      mayHaveBeenApplied: false,
      attempts: 1,
    });
  });

  it("keeps the fields of each subclass", () => {
    expect(new HubTimeoutError({ timeout: 50, origin: "https://h.test" }).toJSON()).toEqual({
      name: "HubTimeoutError",
      message: "Request to https://h.test timed out after 50 ms.",
      code: "ETIMEDOUT",
      origin: "https://h.test",
      timeout: 50,
      mayHaveBeenApplied: false,
    });
    const issues = [{ path: ["limit"], code: "invalid_type", message: "limit must be an integer" }];
    expect(new HubValidationError({ what: "query", issues }).toJSON()).toMatchObject({ name: "HubValidationError", issues });
    const limited = new RateLimitError({ status: 429, code: undefined, message: "slow", body: "x", headers: { "set-cookie": "s=1" }, retryAfterMs: 7_000 });
    expect(limited.toJSON()).toEqual({ name: "RateLimitError", message: "slow", status: 429, issues: [], retryAfterMs: 7_000, mayHaveBeenApplied: false });
  });

  it("a plain HubError has name and message", () => {
    expect(JSON.stringify(new HubError({ message: "boom" }))).toBe('{"name":"HubError","message":"boom","mayHaveBeenApplied":false}');
  });

  it("an award error never carries key material", async () => {
    mock.loseNextWrites(3, "network-error");
    const error = await serverClient(mock.baseUrl).awardPoints({ wallet: "0xabc", amount: 1, ref: "k" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubError);
    const text = JSON.stringify(error);
    expect(text).toContain("may have been applied");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SIGNING_KEY);
  });
});
