import type { Leaderboard, LeaderboardRow } from "../core/types/responses";

const ROW_KEYS = ["entries", "rows", "leaderboard", "items", "data", "results", "stakers"];

/**
 * The rows of a leaderboard, whichever shape the server chose: a bare array, or an object holding
 * the array under a common key. `[]` when no such array is found. The body itself is unchanged.
 *
 * @example
 * ```ts
 * const rows = leaderboardRows(await hub.getLeaderboard({ limit: 5 }));
 * ```
 */
export function leaderboardRows(leaderboard: Leaderboard): LeaderboardRow[] {
  if (Array.isArray(leaderboard)) return leaderboard;
  // Whatever a JavaScript caller hands in: no object, no rows.
  if (typeof leaderboard !== "object" || leaderboard === null) return [];
  const key = ROW_KEYS.find((name) => Array.isArray(leaderboard[name]));
  return key === undefined ? [] : (leaderboard[key] as LeaderboardRow[]);
}
