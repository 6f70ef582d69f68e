/** How the mock server words its error bodies; real servers differ, so the SDK is tried on each. */
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

/** One hub's data in the mock. */
export interface MockHub {
  /** Public configuration returned by `GET /hub/{slug}` (the slug is added). */
  config: Record<string, unknown>;
  /** Stakers, in any order; the leaderboard sorts them by `staked`. */
  stakers: Array<{ wallet: string; staked: number }>;
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
  leaderboardLimit?: { default: number; max: number };
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
}

/** A request as the mock received it, for assertions (e.g. that nothing secret was sent). */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One applied award. */
export interface AwardRecord {
  hub: string;
  wallet: string;
  amount: number;
  ref: string;
  reason?: string;
  kind?: string;
  /** Server time (ms) when applied. */
  at: number;
}

/** How a lost write answer is lost. */
export type LostAnswer = "network-error" | 502 | 503 | 504;

/** A canned answer for {@link HubMock.failNext}. */
export interface CannedResponse {
  /** @default 503 */
  status?: number;
  /** @default an HTML proxy page */
  body?: string;
  /** @default "text/html" */
  contentType?: string;
  headers?: Record<string, string>;
}
