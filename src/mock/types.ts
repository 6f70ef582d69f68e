import type { HubErrorFormat, HubProfile, HubRateLimitHeaders } from "../core/types/profile";
import type { HubOperation, HubSchemas } from "../core/types/schemas";

/** How the mock server words its error bodies; real servers differ, so the SDK is tried on each. The profile's `errors`. */
export type MockErrorFormat = HubErrorFormat;

/** One hub's data in the mock. */
export interface MockHub {
  /** Public configuration returned by `GET /hub/{slug}` (the slug is added). */
  config: Record<string, unknown>;
  /** Stakers, in any order; the leaderboard sorts them by `staked`. */
  stakers: Array<{
    /** The staker's wallet. */
    wallet: string;
    /** Amount staked. */
    staked: number;
  }>;
  /** Token holdings by wallet; a wallet listed here is a holder. */
  holders?: Record<string, number>;
  /** Reward-point balances at start, by wallet. */
  balances?: Record<string, number>;
}

/** An API key: its public client id maps to this. */
export interface MockKey {
  /** The secret, as the studio shows it once. The mock keeps only its sha256, like the server. */
  secret: string;
  /** The one hub the key is scoped to. */
  hub: string;
}

/** Options of {@link createHubMock}: the data, and the choices a real server may make differently. */
export interface HubMockOptions {
  /** Base address the handlers answer on. @default "https://hub.example.com/api/v1" */
  baseUrl?: string;
  /** Hubs by slug. @default demo data: hubs `alpha` and `beta` */
  hubs?: Record<string, MockHub>;
  /** Keys by client id. @default `pk_alpha_demo` (hub `alpha`) and `pk_beta_demo` (hub `beta`), see `demoKeys` */
  keys?: Record<string, MockKey>;
  /**
   * How your hub speaks, as `public-hub doctor --profile` wrote it (the same object the clients'
   * `profile` takes), checked here: a bad one throws its `HubValidationError`. It sets the dialect:
   * `errors`, `envelope`, `requestIdHeader`, the award's status, duplicate and conflict signals, how
   * a `rateLimit` is announced, the leaderboard's rows and pages. An option given beside it wins
   * over the field it sets (`errorFormat` over `errors`, `duplicateStyle` over `award.duplicate`
   * and `award.conflict`, `leaderboardFormat` over `leaderboard.rows`…): a test can pin one choice
   * and keep the rest of the hub. The profile sets no `rateLimit`: it says how one is announced.
   * @default none (the options' defaults)
   */
  profile?: HubProfile;
  /**
   * Error body format. A signal's declared code (`profile.award`) that the format has no place
   * for goes beside, at the top (`"problem"`, `"nestjs"`, `"fastapi"`; an RFC 9457 extension
   * member, as apps add it); `"text"` and `"html"` cannot carry one.
   * @default the profile's `errors`, else "nested"
   */
  errorFormat?: MockErrorFormat;
  /** Status for a bad or missing signature or timestamp (the spec does not show it). @default 401 */
  signatureFailureStatus?: 400 | 401 | 403;
  /** How `Retry-After` is written on 429s. @default "seconds" */
  retryAfterFormat?: "seconds" | "http-date";
  /** Leaderboard body: `{ hub, limit, entries: [...] }` or a bare array of rows. @default the profile's `leaderboard.rows`, else "object" */
  leaderboardFormat?: "object" | "array";
  /** Default and maximum leaderboard `limit`; a larger one is clamped. @default { default: 10, max: 100 } */
  leaderboardLimit?: {
    /** Rows when no `limit` is asked. */
    default: number;
    /** Most rows a `limit` can get. */
    max: number;
  };
  /** Server clock minus real clock, in milliseconds. @default 0 */
  clockOffsetMs?: number;
  /** Whether responses carry a `Date` header (clock-skew correction needs it). @default true */
  sendDateHeader?: boolean;
  /**
   * Points awarded per `kind` for the `{ wallet, kind, ref }` award shape; unknown kinds get 1.
   * @default { "daily-login": 5 }
   */
  kindPoints?: Record<string, number>;
  /**
   * Your app's declared response shapes (the `schemas` of its clients; one module for both). Every
   * success body the mock serves is checked against its operation's schema; one that does not fit
   * is answered `501` with `mock_schema_drift` and every failing field, so the test whose call
   * met it fails at once (the client does not retry a 501) instead of passing on shapes your
   * server would not send.
   * @default {} (nothing checked)
   */
  schemas?: HubSchemas;
  /**
   * Your hub's shapes: per operation, a fixture or a function of the mock's state
   * ({@link MockAnswerContext}) returning the payload to serve.
   * @default the mock's own shapes
   */
  responses?: MockResponses;
  /** Wrap every success in `{ [envelope]: payload, meta: { request_id } }`. @default the profile's `envelope`, else none */
  envelope?: string;
  /** How a used `ref` is answered, and whether a `ref` with other parameters is a conflict. @default the profile's `award.duplicate` and `award.conflict`, else "flag" */
  duplicateStyle?: MockDuplicateStyle;
  /**
   * Requests per second the mock allows (a fixed one-second window over every request but
   * preflights), answering 429 with `Retry-After` beyond it, and announces in `rateLimitHeaders`.
   * @default none
   */
  rateLimit?: number;
  /**
   * How the `rateLimit` is announced on every answer (the profile's `rateLimit.reset` and
   * `resetLagSeconds` shape its reset).
   * @default the profile's `rateLimit.headers`, else "ietf"; nothing without a `rateLimit`
   */
  rateLimitHeaders?: MockRateLimitHeaders;
  /** Name of the request-id header on every answer (`Request-Id` as Stripe names it). @default the profile's `requestIdHeader` (none for its `null`), else "x-request-id" */
  requestIdHeader?: string;
  /**
   * How many requests `requests` keeps, the newest: a long-running mock stays flat. `Infinity`
   * keeps all.
   * @default 1000
   */
  requestLog?: number;
}

/** What a function of {@link HubMockOptions.responses} is given: the mock's state and its own answer. */
export interface MockAnswerContext<Body = unknown> {
  /** The hub's slug (`undefined` for discovery). */
  hub: string | undefined;
  /** The body the mock would serve in its own shape (its default answer). */
  body: Body;
  /** A wallet's balance in this hub, now. */
  balanceOf(wallet: string): number;
  /** Applied awards, oldest first (all hubs). */
  ledger: readonly AwardRecord[];
  /** The request's URL (path parameters and query). */
  url: URL;
  /** The award operation only: the award applied now, or earlier for a duplicate. */
  award?: AwardRecord;
  /** The award operation only: whether the hub already had this `ref`. */
  duplicate?: boolean;
}

/**
 * Your hub's answers, per operation: a fixture served as it is, or a function of the mock's state.
 * Each is the payload: `envelope` wraps it, `schemas` checks it.
 * @example
 * ```ts
 * const responses: MockResponses = { holder: ({ url, balanceOf }) => ({ points: balanceOf(url.pathname.split("/").pop()!) }) };
 * ```
 */
export type MockResponses = {
  [Operation in HubOperation]?: string | number | boolean | null | readonly unknown[] | { [key: string]: unknown } | ((context: MockAnswerContext<MockBodies[Operation]>) => unknown);
};

/** One leaderboard row as the mock serves it. */
export interface MockRow {
  /** 1 for the largest stake. */
  rank: number;
  /** The staker's wallet. */
  wallet: string;
  /** Amount staked. */
  staked: number;
}

/** The mock's own answer per operation: the `body` a {@link MockResponses} function is given. */
export interface MockBodies {
  /** Discovery: `{ name, version, baseUrl, endpoints: [{ method, path, auth, query? }] }`. */
  discovery: Record<string, unknown>;
  /** The hub's `config` with its `slug`. */
  hub: Record<string, unknown>;
  /**
   * `{ hub, limit, total, entries }`, or the rows alone with `leaderboardFormat: "array"`; with a
   * profile, the shape its `leaderboard` declares (another key, a Relay connection, paging fields).
   */
  leaderboard: {
    /** The hub's slug. */
    hub: string;
    /** Rows asked (or the default). */
    limit: number;
    /** All stakers. */
    total: number;
    /** The rows. */
    entries: MockRow[];
  } | MockRow[] | { [key: string]: unknown };
  /** A wallet's holdings and balance. */
  holder: {
    /** The hub's slug. */
    hub: string;
    /** The wallet. */
    wallet: string;
    /** Whether it holds tokens. */
    holder: boolean;
    /** Tokens held. */
    tokens: number;
    /** Reward-point balance. */
    bits: number;
  };
  /** A wallet's staking summary. */
  stakeStatus: {
    /** The hub's slug. */
    hub: string;
    /** The wallet. */
    wallet: string;
    /** Whether it stakes. */
    staking: boolean;
    /** Amount staked. */
    staked: number;
    /** Its rank, or null. */
    rank: number | null;
  };
  /** The award's answer (`duplicate` in the `"flag"` style only). */
  award: {
    /** Always true. */
    ok: true;
    /** The hub's slug. */
    hub: string;
    /** Wallet credited. */
    wallet: string;
    /** The award's ref. */
    ref: string;
    /** Points credited. */
    awarded: number;
    /** Balance after it. */
    balance: number;
    /** `"flag"` style: whether the ref was used before. */
    duplicate?: boolean;
  };
}

/**
 * How the mock answers a `ref` it already applied with the same parameters (a `ref` sent again
 * with other parameters is a 409 `ref_conflict` in every style but `"flag"`). Each is a
 * profile's `award.duplicate` signal, answered the same way.
 */
export type MockDuplicateStyle =
  /** 200 with `duplicate: true` in the body (a fresh award: `duplicate: false`) */
  | "flag"
  /** 200, the first answer's body, `Idempotent-Replayed: true` (Stripe) */
  | "replay-header"
  /** 409 `duplicate_ref` in the error format (`…/problems/duplicate-ref` with `"problem+json"`) */
  | "409"
  /** `208 Already Reported` with the first answer's body */
  | "208";

/** Rate-limit header fields on every answer when {@link HubMockOptions.rateLimit} is set. The profile's `rateLimit.headers`. */
export type MockRateLimitHeaders = HubRateLimitHeaders;

/** A request as the mock received it, for assertions (e.g. that nothing secret was sent). */
export interface RecordedRequest {
  /** HTTP method. */
  method: string;
  /** Full URL as received. */
  url: string;
  /** Headers, lower-case names. */
  headers: Record<string, string>;
  /** Body text (empty for none). */
  body: string;
}

/** One applied award. */
export interface AwardRecord {
  /** Hub slug. */
  hub: string;
  /** Wallet credited. */
  wallet: string;
  /** Points credited (for a `kind` award, the kind's points). */
  amount: number;
  /** The award's idempotency key. */
  ref: string;
  /** Reason, for the amount shape. */
  reason?: string;
  /** Kind, for the kind shape. */
  kind?: string;
  /** Server time (ms) when applied. */
  at: number;
}

/** How a lost write answer is lost. */
export type LostAnswer = "network-error" | 502 | 503 | 504;

/**
 * A canned answer for {@link HubMock.failNext}.
 * @example
 * ```ts
 * mock.failNext(1, { status: 502, body: "<html>Bad Gateway</html>" } satisfies CannedResponse);
 * ```
 */
export interface CannedResponse {
  /** @default 503 */
  status?: number;
  /** @default an HTML proxy page */
  body?: string;
  /** @default "text/html" */
  contentType?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
}
