/**
 * `public-hub-sdk/mock`: the Public Hub API as MSW request handlers, for testing apps without a
 * server. It implements keys and hub scoping, signature checks in a ±300 s window, idempotent
 * `ref`s, and fault injection; its error bodies, statuses and header formats can be switched to
 * match other servers, one by one or all at once with a hub `profile`. Needs `msw` 2 (a peer dependency).
 *
 * @module public-hub-sdk/mock
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { createHubMock, demoKeys } from "public-hub-sdk/mock";
 *
 * const mock = createHubMock();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: "error" });
 * // …point a HubClient at mock.baseUrl with clientId "pk_alpha_demo" and hub "alpha"
 * afterEach(() => mock.reset());
 * ```
 */
import type { RequestHandler } from "msw";
import { demoHubs, demoKeys } from "./fixtures";
import { createHandlers } from "./handlers";
import { settingsOf } from "./settings";
import { MockState } from "./state";
import type { AwardRecord, CannedResponse, HubMockOptions, LostAnswer, RecordedRequest } from "./types";

/** A running mock: handlers to install in MSW, plus its state and fault controls. */
export interface HubMock {
  /** Install with `setupServer(...mock.handlers)` (Node) or `setupWorker(...mock.handlers)` (browser). */
  readonly handlers: RequestHandler[];
  /** The base address the handlers answer on, without a trailing slash. */
  readonly baseUrl: string;
  /** Applied awards, oldest first. A replayed `ref` adds nothing. */
  readonly ledger: readonly AwardRecord[];
  /** The requests received, oldest first, with headers and body: the newest `requestLog` of them. */
  readonly requests: readonly RecordedRequest[];
  /** A wallet's reward-point balance in a hub. */
  balanceOf(hub: string, wallet: string): number;
  /**
   * Apply the next `count` valid writes but lose their answers: a connection reset
   * (`"network-error"`, the default) or a proxy's 5xx page.
   */
  loseNextWrites(count: number, how?: LostAnswer): void;
  /** Answer the next `count` requests with 429 and `Retry-After: retryAfterSeconds`. */
  rateLimitNext(count: number, retryAfterSeconds?: number): void;
  /** Answer the next `count` requests with a canned response (default: a proxy's HTML 503). */
  failNext(count: number, response?: CannedResponse): void;
  /**
   * Answer the next `count` requests with a redirect to `location` (resolved against the request
   * URL), as a moved API or a misconfigured proxy would. Nothing is applied.
   */
  redirectNext(count: number, location: string, status?: 301 | 302 | 303 | 307 | 308): void;
  /**
   * Answer the next `count` requests as a cache would serve a stored copy: `Age: ageSeconds` and a
   * `Date` that many seconds old (the request is still handled normally).
   */
  serveCachedNext(count: number, ageSeconds: number): void;
  /** Set the server clock's offset from the real clock, in milliseconds. */
  setClockOffset(ms: number): void;
  /** Back to the start: balances, ledger, requests (and request ids), faults and clock. */
  reset(): void;
}

/**
 * Creates the mock server's handlers and state.
 * @throws {HubValidationError} for a bad `profile`, naming every field.
 *
 * @example
 * ```ts
 * const mock = createHubMock({ errorFormat: "problem", signatureFailureStatus: 403 });
 * mock.loseNextWrites(1); // the next award is applied but its answer is lost
 * const profiled = createHubMock({ profile: JSON.parse(readFileSync("hub-profile.json", "utf8")) }); // a hub as doctor --profile learned it
 * ```
 */
export function createHubMock(options: HubMockOptions = {}): HubMock {
  const baseUrl = (options.baseUrl ?? "https://hub.example.com/api/v1").replace(/\/+$/, "");
  const state = new MockState(options.hubs ?? demoHubs(), options.keys ?? demoKeys(), options.clockOffsetMs ?? 0);
  const handlers = createHandlers(state, settingsOf(options, baseUrl));
  const repeat = <T>(list: T[], count: number, item: T) => list.push(...Array.from({ length: count }, () => item));
  return {
    handlers,
    baseUrl,
    get ledger() {
      return state.ledger;
    },
    get requests() {
      return state.requests;
    },
    balanceOf: (hub, wallet) => state.balanceOf(hub, wallet),
    loseNextWrites: (count, how = "network-error") => repeat(state.faults.lostWrites, count, how),
    rateLimitNext: (count, retryAfterSeconds = 1) => repeat(state.faults.rateLimits, count, retryAfterSeconds),
    failNext: (count, response = {}) => repeat(state.faults.canned, count, response),
    redirectNext: (count, location, status = 307) =>
      repeat(state.faults.canned, count, { status, body: "", contentType: "text/plain", headers: { location } }),
    serveCachedNext: (count, ageSeconds) => repeat(state.faults.cachedAges, count, ageSeconds),
    setClockOffset: (ms) => {
      state.clockOffsetMs = ms;
    },
    reset: () => state.reset(),
  };
}

export { demoHubs, demoKeys } from "./fixtures";
export { CORS_HEADERS } from "./responses";
export type {
  AwardRecord,
  CannedResponse,
  HubMockOptions,
  LostAnswer,
  MockAnswerContext,
  MockBodies,
  MockDuplicateStyle,
  MockErrorFormat,
  MockHub,
  MockKey,
  MockRateLimitHeaders,
  MockResponses,
  MockRow,
  RecordedRequest,
} from "./types";
