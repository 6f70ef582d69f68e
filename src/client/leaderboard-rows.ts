import { excerpt, isObject } from "../core/answer";
import { HubResponseError, HubValidationError } from "../core/errors";
import type { HubProfile } from "../core/types/profile";
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
    : Board extends {
          /** A Relay connection's edges. */
          edges: readonly {
            /** An edge's row. */
            node: infer Node;
          }[];
        }
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
 *
 * With a hub profile whose `leaderboard.rows` is given, the rows are read there and nowhere else:
 * `""` a bare array, a key (`"entries"`), `"edges.node"` a Relay connection (generally
 * `"<list>.<field>"`: each element's field); at the top, or one envelope deep (under the profile's
 * `envelope` when it declares one, else under one of the keys above).
 * @param profile The hub's profile (`hub.profile`), if any, or the part of one declaring the leaderboard: its `leaderboard.rows` and `envelope` are read.
 * @throws {HubResponseError} (`unexpected-shape`) naming the keys it saw, for any other shape (or
 * rows not where the profile says): a board it cannot read is never an empty one.
 * @throws {HubValidationError} when the profile's `leaderboard.rows` is given and is no string.
 * @example
 * ```ts
 * const rows = leaderboardRows(await hub.getLeaderboard(), hub.profile);
 * ```
 */
export function leaderboardRows<Board extends object>(leaderboard: Board, profile?: Partial<HubProfile>): Array<LeaderboardRowOf<Board>> {
  const place = profile?.leaderboard?.rows;
  // Declared is obeyed, never guessed around: a place that is no string is refused.
  if (place !== undefined && typeof place !== "string") throw new HubValidationError({ what: "hub profile", issues: [{ path: ["leaderboard", "rows"], code: "invalid_type", message: 'leaderboard.rows must be a string: "", a key, or "edges.node"' }] });
  const rowsOf = (value: unknown, depth: number): unknown[] | undefined => {
    if (place !== undefined) {
      const rows = rowsAt(value, place);
      if (rows || depth > 0 || !isObject(value)) return rows;
      for (const key of profile?.envelope === undefined ? ROW_KEYS : [profile.envelope]) {
        const inner = rowsAt(value[key], place);
        if (inner) return inner;
      }
      return undefined;
    }
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
  const seen = isObject(leaderboard) ? `an object with keys ${Object.keys(leaderboard).map((key) => JSON.stringify(key)).join(", ") || "(none)"}` : Array.isArray(leaderboard) ? "an array" : `a ${leaderboard === null ? "null" : typeof leaderboard}`;
  const text = (() => {
    try {
      return JSON.stringify(leaderboard) ?? String(leaderboard);
    } catch {
      return String(leaderboard);
    }
  })();
  const detail =
    place === undefined
      ? `no leaderboard rows found in ${seen}: expected an array, one under ${ROW_KEYS.join(", ")}, or Relay edges (also one envelope deep); declare the envelope with the client's \`unwrap\` option`
      : `no leaderboard rows at ${JSON.stringify(place)} (the profile's leaderboard.rows) in ${seen}: expected ${describePlace(place)} there (also one envelope deep); correct the profile, or leave leaderboard.rows out to have the rows found`;
  throw new HubResponseError({ status: 200, problem: "unexpected-shape", body: leaderboard, bodyExcerpt: excerpt(text), detail });
}

/** The rows at a declared place: `""` the value itself, `"<key>"` the list under it, `"<list>.<field>"` each element's field. */
function rowsAt(value: unknown, place: string): unknown[] | undefined {
  if (place === "") return Array.isArray(value) ? value : undefined;
  if (!isObject(value)) return undefined;
  const dot = place.indexOf(".");
  const list = value[dot < 0 ? place : place.slice(0, dot)];
  if (!Array.isArray(list)) return undefined;
  if (dot < 0) return list;
  const field = place.slice(dot + 1);
  return list.every((element) => isObject(element) && field in element) ? list.map((element: Record<string, unknown>) => element[field]) : undefined;
}

function describePlace(place: string): string {
  if (place === "") return "a bare array";
  const dot = place.indexOf(".");
  return dot < 0 ? `an array under ${JSON.stringify(place)}` : `an array under ${JSON.stringify(place.slice(0, dot))} whose every element holds ${JSON.stringify(place.slice(dot + 1))}`;
}
