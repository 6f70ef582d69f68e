import type { LeaderboardRow } from "../core/types/responses";

// The keys under which a leaderboard object holds its rows; LeaderboardRowOf repeats them as a type
// (typedoc documents only exported names), and a type test checks the two agree.
export const ROW_KEYS = ["entries", "rows", "leaderboard", "items", "data", "results", "stakers"] as const;

/**
 * The row type of a leaderboard type: the element of a bare array, or of the array under one of
 * the keys {@link leaderboardRows} looks at; `LeaderboardRow` for the lenient (undeclared) type.
 * @example
 * ```ts
 * type Row = LeaderboardRowOf<{ entries: Array<{ rank: number; wallet: string }> }>; // { rank: number; wallet: string }
 * ```
 */
export type LeaderboardRowOf<Board> = 0 extends 1 & Board
  ? LeaderboardRow
  : Board extends readonly (infer Row)[]
    ? Row
    : string extends keyof Board
      ? LeaderboardRow // an index signature: the lenient type, whose rows are not declared
      : {
          [K in keyof Board & ("entries" | "rows" | "leaderboard" | "items" | "data" | "results" | "stakers")]-?: NonNullable<Board[K]> extends readonly (infer Row)[] ? Row : never;
        }[keyof Board & ("entries" | "rows" | "leaderboard" | "items" | "data" | "results" | "stakers")];

/**
 * The rows of a leaderboard, whichever shape the server chose: a bare array, or an object holding
 * the array under a common key. `[]` when no such array is found. The body itself is unchanged.
 * The rows keep the type your `schemas.leaderboard` declares.
 *
 * @example
 * ```ts
 * const rows = leaderboardRows(await hub.getLeaderboard({ limit: 5 }));
 * ```
 */
export function leaderboardRows<Board extends object>(leaderboard: Board): Array<LeaderboardRowOf<Board>> {
  if (Array.isArray(leaderboard)) return leaderboard;
  // Whatever a JavaScript caller hands in: no object, no rows.
  if (typeof leaderboard !== "object" || leaderboard === null) return [];
  const board = leaderboard as Record<string, unknown>;
  const key = ROW_KEYS.find((name) => Array.isArray(board[name]));
  return key === undefined ? [] : (board[key] as Array<LeaderboardRowOf<Board>>);
}
