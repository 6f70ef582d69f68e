import { excerpt, isObject } from "../core/answer";
import { HubResponseError } from "../core/errors";
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
    : Board extends { edges: readonly { node: infer Node }[] }
      ? Node // a Relay connection
      : string extends keyof Board
      ? LeaderboardRow // an index signature: the lenient type, whose rows are not declared
      : {
          [K in keyof Board & ("entries" | "rows" | "leaderboard" | "items" | "data" | "results" | "stakers")]-?: NonNullable<Board[K]> extends readonly (infer Row)[] ? Row : never;
        }[keyof Board & ("entries" | "rows" | "leaderboard" | "items" | "data" | "results" | "stakers")];

/**
 * The rows of a leaderboard, whichever common shape the server chose: a bare array; an object
 * holding the array under `entries`, `rows`, `leaderboard`, `items`, `data`, `results` or
 * `stakers`; a Relay connection's `edges[].node`; or such an object one envelope deep (`{ data:
 * { rows: […] } }`, Stripe's `{ object: "list", data: […] }`). The rows keep the type your `schemas.leaderboard` declares.
 * @throws {HubResponseError} (`unexpected-shape`) naming the keys it saw, for any other shape: a
 * board it cannot read is never an empty one.
 */
export function leaderboardRows<Board extends object>(leaderboard: Board): Array<LeaderboardRowOf<Board>> {
  const rowsOf = (value: unknown, depth: number): unknown[] | undefined => {
    if (Array.isArray(value)) return value;
    if (!isObject(value)) return undefined;
    // A Relay connection: each edge holds its row as `node` (and a cursor).
    if (Array.isArray(value.edges) && value.edges.every((edge) => isObject(edge) && "node" in edge)) return value.edges.map((edge: { node: unknown }) => edge.node);
    for (const key of ROW_KEYS) if (Array.isArray(value[key])) return value[key] as unknown[];
    if (depth > 0) return undefined;
    for (const key of ROW_KEYS) {
      const inner = rowsOf(value[key], 1);
      if (inner) return inner;
    }
    return undefined;
  };
  const rows = rowsOf(leaderboard, 0);
  if (rows) return rows as Array<LeaderboardRowOf<Board>>;
  const seen = isObject(leaderboard) ? `an object with keys ${Object.keys(leaderboard).map((key) => JSON.stringify(key)).join(", ") || "(none)"}` : `a ${leaderboard === null ? "null" : typeof leaderboard}`;
  const text = (() => {
    try {
      return JSON.stringify(leaderboard) ?? String(leaderboard);
    } catch {
      return String(leaderboard);
    }
  })();
  throw new HubResponseError({ status: 200, problem: "unexpected-shape", body: leaderboard, bodyExcerpt: excerpt(text), detail: `no leaderboard rows found in ${seen}: expected an array, one under ${ROW_KEYS.join(", ")}, or Relay edges (also one envelope deep); declare the envelope with the client's \`unwrap\` option` });
}
