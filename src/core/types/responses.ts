/**
 * Response bodies. The spec does not show them, so each type names the fields a typical server
 * sends, all optional, and keeps every other field through an index signature: nothing the server
 * sends is dropped. Pass a `schema` to a call to validate and narrow a body.
 */


/** The discovery document at the base address. */
export interface DiscoveryDocument {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The API version, e.g. `"v1"`, when the server says. */
  version?: string;
  /** The operations the server lists, as it describes them. */
  endpoints?: unknown[];
}

/** The public configuration of a hub. */
export interface HubConfig {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The hub's slug. */
  slug?: string;
  /** The hub's display name. */
  name?: string;
}

/** One row of the staking leaderboard. */
export interface LeaderboardRow {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** Position, 1 for the top staker. */
  rank?: number;
  /** The staker's wallet address. */
  wallet?: string;
}

/**
 * The leaderboard as the server sends it: an object holding the rows, or a bare array of rows.
 * Any field may be read on it (`board.nextCursor`, `board.next`) without narrowing: each is `unknown`.
 */
export type Leaderboard = { [key: string]: unknown } | (LeaderboardRow[] & { [key: string]: unknown });

/** The holder status and reward-point balance of one wallet. */
export interface HolderStatus {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The wallet asked about. */
  wallet?: string;
}

/** The staking summary of one wallet. */
export interface StakeStatus {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The wallet asked about. */
  wallet?: string;
}

/** The server's answer to an award (`{}` when it sent no body). */
export interface AwardResult {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The award's idempotency key, when echoed. */
  ref?: string;
}
