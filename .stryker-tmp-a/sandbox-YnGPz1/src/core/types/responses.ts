/**
 * Response bodies. The spec does not show them, so each type names the fields a typical server
 * sends, all optional, and keeps every other field through an index signature: nothing the server
 * sends is dropped. Pass a `schema` to a call to validate and narrow a body.
 */
// @ts-nocheck



/**
 * The discovery document at the base address.
 * @example
 * ```ts
 * const doc: DiscoveryDocument = await hub.discover();
 * console.log(doc.version, doc.endpoints?.length);
 * ```
 */
export interface DiscoveryDocument {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The API version, e.g. `"v1"`, when the server says. */
  version?: string;
  /** The operations the server lists, as it describes them. */
  endpoints?: unknown[];
}

/**
 * The public configuration of a hub.
 * @example
 * ```ts
 * const config: HubConfig = await hub.getHub();
 * ```
 */
export interface HubConfig {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The hub's slug. */
  slug?: string;
  /** The hub's display name. */
  name?: string;
}

/**
 * One row of the staking leaderboard.
 * @example
 * ```ts
 * for (const row of leaderboardRows(await hub.getLeaderboard())) console.log(row.rank, row.wallet);
 * ```
 */
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
 * @example
 * ```ts
 * const board: Leaderboard = await hub.getLeaderboard({ limit: 10 });
 * const rows = leaderboardRows(board);
 * ```
 */
export type Leaderboard = { [key: string]: unknown } | LeaderboardRow[];

/**
 * The holder status and reward-point balance of one wallet.
 * @example
 * ```ts
 * const holder: HolderStatus = await hub.getHolder("0xabc");
 * ```
 */
export interface HolderStatus {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The wallet asked about. */
  wallet?: string;
}

/**
 * The staking summary of one wallet.
 * @example
 * ```ts
 * const stake: StakeStatus = await hub.getStakeStatus("0xabc");
 * ```
 */
export interface StakeStatus {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The wallet asked about. */
  wallet?: string;
}

/**
 * The server's answer to an award (`{}` when it sent no body).
 * @example
 * ```ts
 * const result: AwardResult = await server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r1" });
 * ```
 */
export interface AwardResult {
  /** Every field the server sent is kept. */
  [key: string]: unknown;
  /** The award's idempotency key, when echoed. */
  ref?: string;
}
