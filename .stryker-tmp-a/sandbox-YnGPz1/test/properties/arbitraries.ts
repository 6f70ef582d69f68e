/**
 * Hostile answers as fast-check arbitraries: every status, garbage or cached `Date`, garbage
 * `Retry-After` and `Location`, bodies truncated, reset, stalled, deep, huge, or holding
 * `__proto__` keys; network failures of every kind; headers that never come.
 */
// @ts-nocheck

import fc from "fast-check";
import type { Answer, BodyPlan } from "./answers";

export const ORIGIN = "https://h.test";
export const BASE = `${ORIGIN}/api/v1`;

/** Network failures: those before anything left (refused, DNS) and those after (reset, socket). */
export const NEVER_SENT_CODES = ["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"];
const networkCodes = [...NEVER_SENT_CODES, "ECONNRESET", "UND_ERR_SOCKET", "EPIPE", "ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT"];

const status = fc.oneof(
  fc.constantFrom(200, 201, 202, 204, 301, 302, 303, 307, 308, 400, 401, 403, 404, 408, 409, 413, 422, 429, 500, 502, 503, 504, 520),
  fc.integer({ min: 200, max: 599 }),
);

/** `Date`: none, the server's own time (`@now+skew`), junk, or a cache's stored copy (old, with `Age`). */
export const dateHeaders = (skewMs: number) =>
  fc.oneof(
    fc.constant({}),
    fc.constant({ date: `@now+${skewMs}` }),
    fc.constantFrom("0", "-1", "1.", "garbage", "", "Thu, 01 Jan 1970 00:00:00 GMT", "Mon, 99 Foo 2024 99:99:99 GMT", "9999999999999").map((date) => ({ date })),
    fc.constant({ date: `@now+${skewMs - 7_200_000}`, age: "7200" }),
  );

const retryAfter = fc.oneof(
  fc.constant({}),
  fc.constantFrom("0", "0.005", "0.02", "1", "-3", "junk", "1e3", "99999999999", "", "Thu, 01 Jan 1970 00:00:00 GMT", "@now+20", "@now+100000000").map((value) => ({ "retry-after": value })),
);

const location = fc.oneof(
  fc.constant({}),
  fc.constantFrom(`${BASE}/hub/alpha`, "/api/v1/hub/alpha", "https://other.test/api/v1/hub/alpha", "https://user:pw@h.test/api/v1/hub/alpha", "http://[broken", "", "//evil.test/x", "javascript:alert(1)", "../../x").map((value) => ({ location: value })),
);

const bodyText = fc.oneof(
  fc.constant('{"slug":"alpha","ok":true}'),
  fc.constant("[1,2,3]"),
  fc.constant(""),
  fc.constant("<html><body>502 Bad Gateway</body></html>"),
  fc.constant('{"slug":"al'),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.constant('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"code":"__proto__","message":"toString"}'),
  fc.integer({ min: 1_000, max: 50_000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.constant(`{"big":"${"x".repeat(2 ** 20)}"}`),
  fc.string({ maxLength: 30 }),
);

const body: fc.Arbitrary<BodyPlan> = fc.tuple(fc.constantFrom("text", "text", "text", "reset", "stall"), bodyText).map(([kind, text]) => ({ kind, text }) as BodyPlan);

/** One answer of a hostile server whose clock is `skewMs` off ours. */
export const answer = (skewMs = 0): fc.Arbitrary<Answer> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.record({ status, date: dateHeaders(skewMs), retryAfter, location, body }).map(({ status, date, retryAfter, location, body }): Answer => ({ kind: "response", status, headers: { ...date, ...retryAfter, ...location }, body })) },
    { weight: 1, arbitrary: fc.constantFrom(...networkCodes).map((code): Answer => ({ kind: "network", code })) },
    { weight: 1, arbitrary: fc.constant<Answer>({ kind: "stall-headers" }) },
  );

/** A sequence of answers (the last one repeats). */
export const answers = (skewMs = 0) => fc.array(answer(skewMs), { minLength: 1, maxLength: 5 });

/** Client options that keep every wait at a few milliseconds (timeouts, backoff, Retry-After). */
export const FAST = { timeout: 50, retry: { limit: 2, backoff: 5, maxBackoff: 20, maxRetryAfter: 100 } };

/**
 * The longest a call may take with {@link FAST}, from the README's rules: at most `limit + 1`
 * failures and 8 throttles, each attempt cut at `timeout`, each wait at most the longest backoff
 * or `Retry-After`, plus the gate's pause jitter (at most a tenth of the wait + 50 ms); and a 429
 * without `Retry-After` lowers the send rate to no less than one request a second, doubling back
 * every half second.
 */
export const MAX_ATTEMPTS = FAST.retry.limit + 1 + 8;
export const TIME_BOUND_MS = MAX_ATTEMPTS * (FAST.timeout + FAST.retry.maxRetryAfter + FAST.retry.maxRetryAfter / 10 + 50) + 8 * 1_000;
