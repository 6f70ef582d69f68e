import type { MockSettings } from "./settings";
import type { MockRow } from "./types";

/** The query parameter saying where a page starts, per way of paging. */
const START = { none: undefined, relay: "after", cursor: "cursor", page: "page", "has-more": "starting_after", next: "page", link: "page" } as const;

/**
 * One page of the leaderboard as the settings declare it: `limit` rows from where the query says
 * (Relay's `after`, a `cursor`, a `page` from 1), bare, under their key or as a Relay connection,
 * with the paging fields the hub sends; `next` is the absolute URL of the next page (`Link`). A
 * cursor is opaque to clients; here it is the offset of the row after it, in decimal.
 */
export function leaderboardPage({ leaderboard: { rows: key, pages }, leaderboardLimit }: MockSettings, hub: string, ranked: MockRow[], url: URL): { body: unknown; next?: string } | { refused: string; field: string } {
  const query = url.searchParams;
  const asked = query.get("limit") ?? (pages === "relay" ? query.get("first") : null);
  // Not a positive integer: the server default applies (the spec lists no 400 here).
  const limit = asked && /^[1-9]\d*$/.test(asked) ? Math.min(Number(asked), leaderboardLimit.max) : leaderboardLimit.default;
  const param = START[pages];
  const given = param === undefined ? null : query.get(param);
  const at = given === null ? 0 : /^\d+$/.test(given) ? Number(given) : Number.NaN;
  const offset = param === "page" && given !== null ? (at - 1) * limit : at;
  // A cursor or page the mock never gave (page 0, text): refused, not read as the first page, which would loop a client.
  if (!(offset >= 0)) return { refused: `${param} "${given}" is not a page of this leaderboard.`, field: param! };
  const rows = ranked.slice(offset, offset + limit);
  const end = offset + rows.length;
  const more = end < ranked.length;
  const pageInfo = { hasNextPage: more, endCursor: rows.length > 0 ? String(end) : null };
  // The next page's absolute URL (a `Link`, or Django REST framework's `next`).
  const next = new URL(url);
  next.searchParams.set("page", String(offset / limit + 2));
  const paging = {
    none: {},
    link: {},
    relay: { pageInfo },
    cursor: { next_cursor: more ? String(end) : null },
    page: { page: offset / limit + 1, pages: Math.ceil(ranked.length / limit), per_page: limit },
    "has-more": { has_more: more },
    next: { count: ranked.length, next: more ? next.href : null },
  }[pages];
  // Stripe starts after a row's id: here, its place in the ranking.
  const listed = pages === "has-more" ? rows.map((row, i) => ({ id: String(offset + i + 1), ...row })) : rows;
  const body =
    key === "" ? listed
    : key === "edges.node" ? { edges: listed.map((node, i) => ({ node, cursor: String(offset + i + 1) })), pageInfo, ...paging }
    : { hub, limit, total: ranked.length, [key]: listed, ...paging };
  return pages === "link" && more ? { body, next: next.href } : { body };
}
