import type { HubSchemas } from "../core/types/schemas";

/**
 * How the mock server words its error bodies; real servers differ, so the SDK is tried on each.
 * @example
 * ```ts
 * const format: MockErrorFormat = "problem";
 * ```
 */
export type MockErrorFormat =
  /** `{ "error": { "code", "message" } }` */
  | "nested"
  /** `{ "code", "message" }` */
  | "flat"
  /** `{ "error": "<code>", "message" }` */
  | "error-string"
  /** RFC 9457 `application/problem+json`: `{ "type": "about:blank", "title", "status", "detail" }` */
  | "problem"
  /** `text/plain` message */
  | "text"
  /** `text/html` page, as a proxy or framework default would send */
  | "html";

/**
 * One hub's data in the mock.
 * @example
 * ```ts
 * const hub: MockHub = { config: { name: "Gamma" }, stakers: [{ wallet: "0x1", staked: 10 }] };
 * ```
 */
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

/**
 * An API key: its public client id maps to this.
 * @example
 * ```ts
 * const key: MockKey = { secret: "test-secret", hub: "gamma" };
 * ```
 */
export interface MockKey {
  /** The secret, as the studio shows it once. The mock keeps only its sha256, like the server. */
  secret: string;
  /** The one hub the key is scoped to. */
  hub: string;
}

/**
 * Options of {@link createHubMock}: the data, and the choices a real server may make differently.
 * @example
 * ```ts
 * const mock = createHubMock({ errorFormat: "flat", retryAfterFormat: "http-date" });
 * ```
 */
export interface HubMockOptions {
  /**
   * Base address the handlers answer on.
   * @default "https://hub.example.com/api/v1"
   */
  baseUrl?: string;
  /**
   * Hubs by slug.
   * @default demo data: hubs `alpha` and `beta`
   */
  hubs?: Record<string, MockHub>;
  /**
   * Keys by client id.
   * @default `pk_alpha_demo` (hub `alpha`) and `pk_beta_demo` (hub `beta`), see `demoKeys`
   */
  keys?: Record<string, MockKey>;
  /**
   * Error body format.
   * @default "nested"
   */
  errorFormat?: MockErrorFormat;
  /**
   * Status for a bad or missing signature or timestamp (the spec does not show it).
   * @default 401
   */
  signatureFailureStatus?: 400 | 401 | 403;
  /**
   * How `Retry-After` is written on 429s.
   * @default "seconds"
   */
  retryAfterFormat?: "seconds" | "http-date";
  /**
   * Leaderboard body: `{ hub, limit, entries: [...] }` or a bare array of rows.
   * @default "object"
   */
  leaderboardFormat?: "object" | "array";
  /**
   * Default and maximum leaderboard `limit`; a larger one is clamped.
   * @default { default: 10, max: 100 }
   */
  leaderboardLimit?: {
    /** Rows when no `limit` is asked. */
    default: number;
    /** Most rows a `limit` can get. */
    max: number;
  };
  /**
   * Server clock minus real clock, in milliseconds.
   * @default 0
   */
  clockOffsetMs?: number;
  /**
   * Whether responses carry a `Date` header (clock-skew correction needs it).
   * @default true
   */
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
   * @example { schemas } // import { schemas } from "../src/hub-schemas"
   */
  schemas?: HubSchemas;
}

/**
 * A request as the mock received it, for assertions (e.g. that nothing secret was sent).
 * @example
 * ```ts
 * const sent: RecordedRequest[] = mock.requests.filter((r) => r.method === "POST");
 * ```
 */
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

/**
 * One applied award.
 * @example
 * ```ts
 * const credited: AwardRecord[] = mock.ledger.filter((a) => a.wallet === "0xabc");
 * ```
 */
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

/**
 * How a lost write answer is lost.
 * @example
 * ```ts
 * mock.loseNextWrites(1, 502 satisfies LostAnswer);
 * ```
 */
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
