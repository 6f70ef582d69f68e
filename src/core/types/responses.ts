/**
 * Response bodies. The spec does not show them, so each type names the fields a typical server
 * sends, all optional, and keeps every other field through an index signature: nothing the server
 * sends is dropped. Pass a `schema` to a call to validate and narrow a body.
 */

/** Any JSON object. */
export interface JsonObject {
  [key: string]: unknown;
}

/** The discovery document at the base address. */
export interface DiscoveryDocument extends JsonObject {
  version?: string;
  endpoints?: unknown[];
}

/** The public configuration of a hub. */
export interface HubConfig extends JsonObject {
  slug?: string;
  name?: string;
}

/** One row of the staking leaderboard. */
export interface LeaderboardRow extends JsonObject {
  rank?: number;
  wallet?: string;
}

/** The leaderboard as the server sends it: an object holding the rows, or a bare array of rows. */
export type Leaderboard = JsonObject | LeaderboardRow[];

/** The holder status and reward-point balance of one wallet. */
export interface HolderStatus extends JsonObject {
  wallet?: string;
}

/** The staking summary of one wallet. */
export interface StakeStatus extends JsonObject {
  wallet?: string;
}

/** The server's answer to an award. */
export interface AwardResult extends JsonObject {
  ref?: string;
}
