// The client's input checks through its methods and constructor: each issue's exact path, code and
// message, and the name it suggests for an unknown option.
import { describe, expect, it } from "vitest";
import { HubClient, HubValidationError } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";

const { mock, client } = useHubMock();

/** The issues of a `HubValidationError` thrown (or rejected with) by `action`. */
async function issuesOf(action: () => unknown) {
  const error = await (async () => action())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HubValidationError);
  return { message: (error as HubValidationError).message, issues: (error as HubValidationError).issues };
}

describe("input checks: every issue exact", () => {
  it("a wallet with a lone surrogate", async () => {
    const { issues } = await issuesOf(() => client().getHolder("0x\ud800abc"));
    expect(issues).toEqual([{ path: ["wallet"], code: "custom", message: "wallet must not hold a lone surrogate" }]);
    expect(mock.requests).toHaveLength(0);
  });

  it("a limit beyond the exact integers", async () => {
    const { message, issues } = await issuesOf(() => client().getLeaderboard({ limit: 2 ** 53 }));
    expect(issues).toEqual([{ path: ["limit"], code: "invalid_type", message: "limit must be a positive integer (at most 2^53 − 1)" }]);
    expect(message).toBe("Invalid leaderboard query: limit: limit must be a positive integer (at most 2^53 − 1)");
  });

  it("an unknown name in a leaderboard query names the query", async () => {
    const { message } = await issuesOf(() => client().getLeaderboard({ limit: 1, top: 3 } as never));
    expect(message).toBe('Invalid leaderboard query: top: unknown option "top"');
  });

  it("an unknown call option names the call options", async () => {
    const { message } = await issuesOf(() => client().getHub({ timout: 5 } as never));
    expect(message).toBe('Invalid call options: timout: unknown option "timout"');
  });

  it("a null schema for a call is refused as not a schema", async () => {
    const { issues } = await issuesOf(() => client().getHub({ schema: null } as never));
    expect(issues).toEqual([{ path: ["schema"], code: "invalid_type", message: "schema must be a Standard Schema (zod, valibot…: with ~standard.validate)" }]);
  });

  const construct = (extra: Record<string, unknown>) => () => new HubClient({ baseUrl: "https://h.example.com/api/v1", clientId: "pk", hub: "alpha", ...extra } as never);

  it.each([
    ["a negative backoff", { retry: { backoff: -1 } }, ["retry", "backoff"], "retry.backoff must be a finite number ≥ 0"],
    ["a backoff as a string", { retry: { maxBackoff: "5" } }, ["retry", "maxBackoff"], "retry.maxBackoff must be a finite number ≥ 0"],
    ["an unwrap key that is a number", { unwrap: 5 }, ["unwrap"], "unwrap must be a non-empty string: the envelope's key of the payload"],
    ["one bad header among good ones", { headers: { "x-good": "1", "x bad": "2" } }, ["headers"], "headers must be valid header names with string values, no line breaks"],
    ["a header value that is a number", { headers: { "x-count": 5 } }, ["headers"], "headers must be valid header names with string values, no line breaks"],
  ])("refuses %s", async (_name, extra, path, message) => {
    const { issues } = await issuesOf(construct(extra));
    expect(issues).toEqual([{ path, code: "invalid_type", message }]);
  });

  it("suggests the first of the known names that share the longest beginning", async () => {
    const { issues } = await issuesOf(construct({ logs: "debug" }));
    expect(issues).toEqual([{ path: ["logs"], code: "unrecognized_keys", message: 'unknown option "logs"' }]);
  });

  it("suggests nothing for a name sharing less than two letters with every known one", async () => {
    const { issues } = await issuesOf(construct({ strict: true }));
    expect(issues).toEqual([{ path: ["strict"], code: "unrecognized_keys", message: 'unknown option "strict"' }]);
  });
});
