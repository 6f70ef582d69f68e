import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { CLIENT_OPTIONS, checkClientOptions, checkLeaderboardQuery, checkWallet } from "../../src/client/check-input";

/** The issues a check throws, or [] when it accepts the value. */
const issuesOf = (check: () => void) => {
  try {
    check();
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(HubValidationError);
    return (error as HubValidationError).issues;
  }
};

const options = { baseUrl: "https://h.example.com/api/v1", clientId: "pk_alpha", hub: "alpha" };

describe("checkWallet", () => {
  it.each([
    ["a number", 1, { code: "invalid_type", message: "wallet must be a string" }],
    ["undefined", undefined, { code: "invalid_type", message: "wallet is missing" }],
    ["an empty string", "", { code: "too_small", message: "wallet must not be empty" }],
    ["blanks", " \t", { code: "too_small", message: "wallet must not be empty" }],
    [".", ".", { code: "custom", message: 'wallet must not be "." or ".."' }],
    ["..", "..", { code: "custom", message: 'wallet must not be "." or ".."' }],
  ])("refuses %s with exactly one issue at wallet", (_name, value, problem) => {
    expect(issuesOf(() => checkWallet(value))).toEqual([{ path: ["wallet"], ...problem }]);
  });

  it.each(["0xabc", "...", "a/b"])("accepts %s (a segment is encoded when sent)", (wallet) => {
    expect(issuesOf(() => checkWallet(wallet))).toEqual([]);
  });

  it("names what was invalid in the message", () => {
    expect(() => checkWallet("")).toThrow("Invalid wallet: wallet: wallet must not be empty");
  });
});

describe("a leaderboard query's limit", () => {
  const problem = { code: "invalid_type", message: "limit must be a positive integer (at most 2^53 − 1)" };
  it.each([
    ["a string", "5"],
    ["NaN", Number.NaN],
    ["Infinity", Number.POSITIVE_INFINITY],
    ["1.5", 1.5],
    ["0", 0],
    ["-3", -3],
    ["2^53, no longer an exact integer", 2 ** 53],
  ])("refuses %s", (_name, limit) => {
    expect(issuesOf(() => checkLeaderboardQuery({ limit }))).toEqual([{ path: ["limit"], ...problem }]);
  });

  it.each([undefined, 1, 1000, Number.MAX_SAFE_INTEGER])("accepts %s (absent means the server's default)", (limit) => {
    expect(issuesOf(() => checkLeaderboardQuery({ limit }))).toEqual([]);
  });

  it("names the leaderboard query in the message", () => {
    expect(() => checkLeaderboardQuery({ limit: 0 })).toThrow("Invalid leaderboard query: limit: limit must be a positive integer (at most 2^53 − 1)");
  });
});

describe("checkClientOptions", () => {
  it("accepts the three required options alone", () => {
    expect(issuesOf(() => checkClientOptions(options))).toEqual([]);
  });

  it.each([
    ["a number", 1, { code: "invalid_type", message: "hub slug must be a string" }],
    ["blanks", " ", { code: "too_small", message: "hub slug must not be empty" }],
    ["..", "..", { code: "custom", message: 'hub slug must not be "." or ".."' }],
  ])("refuses a hub slug that is %s", (_name, hub, problem) => {
    expect(issuesOf(() => checkClientOptions({ ...options, hub } as never))).toEqual([{ path: ["hub"], ...problem }]);
  });

  it("names every bad option at its path, in one error", () => {
    const issues = issuesOf(() => checkClientOptions({ ...options, clientId: "", timeout: 0, retry: { limit: -1 }, maxConcurrency: 0, logLevel: "loud" } as never));
    expect(issues.map((issue) => issue.path)).toEqual([["clientId"], ["timeout"], ["retry", "limit"], ["maxConcurrency"], ["logLevel"]]);
    expect(issues[4]).toEqual({ path: ["logLevel"], code: "invalid_type", message: "logLevel must be off, error, warn, info, debug" });
  });

  it.each([
    ["timeout false", { timeout: false }],
    ["retry as a count", { retry: 0 }],
    ["every retry option", { retry: { limit: 3, backoff: 0, maxBackoff: 100, maxRetryAfter: 0 } }],
    ["an envelope's key", { unwrap: "data" }],
    ["a logger with the four methods", { logger: { error() {}, warn() {}, info() {}, debug() {} } }],
    ["header values with Latin-1 and tabs", { headers: { "user-agent": "bot\t/ café" } }],
  ])("accepts %s", (_name, extra) => {
    expect(issuesOf(() => checkClientOptions({ ...options, ...extra } as never))).toEqual([]);
  });

  it("accepts a name the class declares (a subclass's option)", () => {
    expect(issuesOf(() => checkClientOptions({ ...options, secret: "s" } as never, [...CLIENT_OPTIONS, "secret"]))).toEqual([]);
  });

  it.each([
    ["a logger without debug", { logger: { error() {}, warn() {}, info() {} } }, "logger"],
    // Within the value: a header injection. A trailing one fetch's Headers trims, as it sends it.
    ["a header value with a newline", { headers: { "x-a": "1\nx-b: 2" } }, "headers"],
    ["a header value beyond Latin-1", { headers: { "x-a": "\u2713" } }, "headers"],
    ["a header value that is no string", { headers: { "x-a": 1 } }, "headers"],
    ["a header name with a space", { headers: { "x a": "1" } }, "headers"],
    ["a fetch that is not a function", { fetch: "fetch" }, "fetch"],
    ["maxConcurrency as a string", { maxConcurrency: "5" }, "maxConcurrency"],
    ["a telemetry without startCall", { telemetry: {} }, "telemetry"],
    ["a telemetry not made by defineTelemetry", { telemetry: { name: "t", startCall: () => undefined } }, "telemetry"],
  ])("refuses %s", (_name, extra, field) => {
    expect(issuesOf(() => checkClientOptions({ ...options, ...extra } as never)).map((issue) => issue.path[0])).toEqual([field]);
  });

  it("a telemetry of one's own is refused until defineTelemetry makes it one, and the message says so", () => {
    const [issue] = issuesOf(() => checkClientOptions({ ...options, telemetry: { name: "t", startCall: () => undefined } } as never));
    expect(issue?.message).toBe("telemetry must be made by openTelemetry() or defineTelemetry()");
  });

  it("never echoes a value, only field names", () => {
    const error = (() => {
      try {
        checkClientOptions({ ...options, clientId: "pk_SECRETISH\n", headers: { "x-key": "SECRET-HEADER\r\n" } });
      } catch (e) {
        return e as HubValidationError;
      }
    })();
    expect(error).toBeInstanceOf(HubValidationError);
    expect(JSON.stringify(error) + String(error?.message)).not.toMatch(/SECRETISH|SECRET-HEADER/);
  });
});
