/**
 * @module
 * Every page of a leaderboard, as one async iterable of rows. A standalone function, not a
 * `HubClient` method: a page's bundler drops it for users who do not page (the browser bundle has
 * a hard ceiling), and it uses only the client's public API (`getLeaderboard().withResponse()`).
 */
import { isObject } from "../core/answer";
import { HubError, HubValidationError } from "../core/errors";
import type { HubPaging } from "../core/types/profile";
import type { HubData, HubSchemas } from "../core/types/schemas";
import type { StandardSchemaV1 } from "../core/types/standard-schema";
import { checkLeaderboardQuery, checkOptions, optional, pathOf } from "./check-input";
import type { HubClient, LeaderboardQuery } from "./hub-client";
import { leaderboardRows, type LeaderboardRowOf } from "./leaderboard-rows";

/** Options of {@link iterateLeaderboard}. */
export interface LeaderboardPagesOptions {
  /**
   * The most pages read. A hub that still announces a next page after them ends the iteration with
   * a {@link HubPagingError} (`reason: "max-pages"`), its rows already given: a list is never cut
   * without a word. @default 100
   */
  maxPages?: number;
  /** Cancels the iteration: the request in flight rejects with `HubAbortError`, and no page is read after it. */
  signal?: AbortSignal;
}

/** Page parameters, as `LeaderboardQuery.page` sends them: `{ after: "…" }`, `{ cursor: "…" }`, `{ page: 2 }`. */
export type LeaderboardPageParams = Record<string, string | number>;

/**
 * Why {@link iterateLeaderboard} stopped before the hub's last page: `max-pages` (the `maxPages`
 * bound was reached), `repeated-page` (the hub announced a next page already read: it would loop),
 * `unfollowable-next` (a next page that cannot or must not be requested: a `Link` to another
 * origin or path, a cursor that is no string or integer).
 */
export type HubPagingProblem = "max-pages" | "repeated-page" | "unfollowable-next";

/**
 * {@link iterateLeaderboard} stopped before the hub's last page. Every row of the pages read was
 * given before it was thrown; `pages` says how many, `next` which page was not read.
 * @example
 * ```ts
 * try {
 *   for await (const row of iterateLeaderboard(hub, { limit: 100 })) save(row);
 * } catch (error) {
 *   if (error instanceof HubPagingError && error.reason === "max-pages") {
 *     // The list was cut: resume later from the page not read.
 *     for await (const row of iterateLeaderboard(hub, { limit: 100, page: error.next! })) save(row);
 *   } else throw error;
 * }
 * ```
 */
export class HubPagingError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubPagingError" as const;
  /** Why the pages stopped. */
  declare readonly reason: HubPagingProblem;
  /** How many pages were read: all their rows were given. */
  declare readonly pages: number;
  /**
   * The parameters of the next page, not read: for `max-pages`, where to resume (`{ page: next }`
   * in {@link iterateLeaderboard}'s query); for `repeated-page`, the page announced again.
   */
  declare readonly next: LeaderboardPageParams | undefined;

  /** @internal Made by {@link iterateLeaderboard}. */
  constructor(init: { reason: HubPagingProblem; pages: number; next?: LeaderboardPageParams | undefined; detail: string }) {
    super({ message: `Leaderboard pages stopped (${init.reason}) after ${init.pages} page${init.pages === 1 ? "" : "s"}, their rows given: ${init.detail}` });
    this.reason = init.reason;
    this.pages = init.pages;
    this.next = init.next;
  }
}

const STYLES: readonly HubPaging[] = ["none", "relay", "cursor", "page", "has-more", "next", "link"];
const DEFAULT_MAX_PAGES = 100;

/**
 * Every row of a leaderboard, page after page, as an async iterable: each page is requested when
 * the rows before it have been taken (`break` sends no further request). The paging is the hub
 * profile's `leaderboard.pages` when the client has one (`hub.profile`), else read off each answer:
 * - Relay: `pageInfo.hasNextPage` and `endCursor` → the next request sends `after=<endCursor>`;
 * - a cursor: `next_cursor`, `nextCursor` or `cursor` → `cursor=<value>`;
 * - numbered pages: `page` and `pages` (or `total_pages`, `totalPages`) → `page=<page + 1>`;
 * - Stripe's `has_more` (or `hasMore`) → `starting_after=<the last row's id>`;
 * - the next page's URL in the body: `next` (Django REST framework, Django Ninja; absolute or
 *   relative), JSON:API's `links.next`, `next_page_url` (Laravel) → that URL's query parameters;
 * - an RFC 8288 `Link` header with `rel="next"` → likewise;
 * - none of these, and nothing that says there is more: one page. A page that says there is more
 *   in a form not followed (`has_more` with no row id, `more: true`, a `next…` field of another
 *   kind) ends with a {@link HubPagingError}, never a silent stop.
 *
 * A next URL is followed only when it is this client's own leaderboard (its origin and path),
 * with its query parameters but `limit`: another origin is never sent the client id.
 *
 * These fields are read at the top of the body, of the payload (with `unwrap`), or one object
 * deeper (`meta`, `pagination`…), before the client's schema (which may drop them). Each page's
 * rows are read with `leaderboardRows(data, hub.profile)`.
 * @param hub The client (a `HubServerClient` too).
 * @param query The page size (`limit`), and optionally the first page's own parameters (`page`), to resume.
 * @throws {HubValidationError} for a bad `query` or `options`, before anything is sent.
 * @throws {HubPagingError} after the rows of the pages read: `max-pages` when the hub still
 * announces a page after `maxPages` pages, `repeated-page` when it announces one already read
 * (never a loop), `unfollowable-next` for a `Link` elsewhere or a cursor that cannot be sent.
 * Any error of `getLeaderboard` and `leaderboardRows` too.
 * @example
 * ```ts
 * import { iterateLeaderboard } from "public-hub-sdk";
 *
 * for await (const row of iterateLeaderboard(hub, { limit: 100 })) console.log(row.rank, row.wallet);
 * ```
 */
export async function* iterateLeaderboard<S extends HubSchemas>(
  hub: HubClient<S>,
  query?: LeaderboardQuery,
  options?: LeaderboardPagesOptions,
): AsyncGenerator<LeaderboardRowOf<HubData<S, "leaderboard">>, void, undefined> {
  checkOptions("paging options", options, [["maxPages", optional((v) => Number.isSafeInteger(v) && (v as number) > 0), "a positive integer"], ["signal", optional((v) => v instanceof AbortSignal), "an AbortSignal"]], ["maxPages", "signal"]);
  checkLeaderboardQuery(query);
  const profile = hub.profile;
  const pinned = profile?.leaderboard?.pages;
  if (pinned !== undefined && !STYLES.includes(pinned)) throw new HubValidationError({ what: "hub profile", issues: [{ path: ["leaderboard", "pages"], code: "invalid_value", message: `leaderboard.pages must be one of ${STYLES.join(", ")}` }] });
  const maxPages = options?.maxPages ?? DEFAULT_MAX_PAGES;
  const own = new URL(`${hub.baseUrl}/${pathOf(["hub", hub.hub, "leaderboard"])}`);
  const schema = hub.schemas.leaderboard;
  let page = query?.page;
  const read = new Set([keyOf(page ?? {})]);
  for (let pages = 1; ; pages++) {
    // The payload as the hub sent it: a schema may drop the paging fields (zod strips unknown keys).
    let sent: unknown;
    const seeing: StandardSchemaV1 | undefined = schema && {
      "~standard": {
        ...schema["~standard"],
        validate: (value) => {
          sent = value;
          return schema["~standard"].validate(value);
        },
      },
    };
    const answer = await hub.getLeaderboard<HubData<S, "leaderboard">>({ ...(query?.limit !== undefined && { limit: query.limit }), ...(page && { page }) }, { ...(options?.signal && { signal: options.signal }), ...(seeing && { schema: seeing as StandardSchemaV1<unknown, HubData<S, "leaderboard">> }) }).withResponse();
    const rows = leaderboardRows(answer.data as object, profile);
    yield* rows as Array<LeaderboardRowOf<HubData<S, "leaderboard">>>;
    const next = nextPage(pinned, [sent !== undefined ? sent : answer.data, answer.envelope], answer.response, own, rows.at(-1));
    if (next === null) return;
    if (typeof next === "string") throw new HubPagingError({ reason: "unfollowable-next", pages, detail: `${next}; not followed` });
    if (read.has(keyOf(next))) throw new HubPagingError({ reason: "repeated-page", pages, next, detail: `the hub announced a next page already read (${describe(next)}): stopped rather than loop` });
    if (pages >= maxPages) throw new HubPagingError({ reason: "max-pages", pages, next, detail: `maxPages (${maxPages}) reached and the hub announces another page (${describe(next)}): raise maxPages, or resume with { page: error.next }` });
    read.add(keyOf(next));
    page = next;
  }
}

/** The same page parameters give the same key, whatever their order and whether a number is sent as one. */
const keyOf = (params: LeaderboardPageParams) => JSON.stringify(Object.entries(params).map(([name, value]) => [name, String(value)]).sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0)));
const describe = (params: LeaderboardPageParams) => Object.entries(params).map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(", ") || "no page parameter";
/** A value a query parameter can carry as it is: non-blank text, or a safe integer. */
const sendable = (value: unknown): value is string | number => (typeof value === "string" && value.trim() !== "") || Number.isSafeInteger(value);

/**
 * The next page of an answer: its parameters; `null` for the last page; a sentence when a next page
 * is announced that cannot be followed. `undefined` (inside) when a style finds no sign of itself.
 */
function nextPage(pinned: HubPaging | undefined, bodies: unknown[], response: Response, own: URL, last: unknown): LeaderboardPageParams | string | null {
  // The body (and the payload under the envelope), and each object directly inside them (`meta`, `pagination`…).
  const holders = bodies.filter(isObject).flatMap((body) => [body, ...Object.values(body).filter(isObject)]);
  const styles: Record<Exclude<HubPaging, "none">, () => LeaderboardPageParams | string | null | undefined> = {
    relay: () => {
      const info = holders.map((holder) => holder.pageInfo).find(isObject);
      if (!info) return undefined;
      if (info.hasNextPage !== true) return null;
      return sendable(info.endCursor) ? { after: info.endCursor } : `pageInfo.hasNextPage is true but its endCursor is ${JSON.stringify(info.endCursor) ?? "undefined"}`;
    },
    cursor: () => {
      const holder = holders.find((candidate) => "next_cursor" in candidate || "nextCursor" in candidate || "cursor" in candidate);
      if (!holder) return undefined;
      const cursor = holder.next_cursor ?? holder.nextCursor ?? holder.cursor;
      if (cursor === null || cursor === undefined || cursor === "" || cursor === false) return null;
      return sendable(cursor) ? { cursor } : `its next cursor is ${JSON.stringify(cursor)}, not text or an integer`;
    },
    page: () => {
      for (const holder of holders) {
        const total = holder.pages ?? holder.total_pages ?? holder.totalPages;
        if (Number.isSafeInteger(holder.page) && Number.isSafeInteger(total)) return (holder.page as number) < (total as number) ? { page: (holder.page as number) + 1 } : null;
      }
      return undefined;
    },
    "has-more": () => {
      const holder = holders.find((candidate) => "has_more" in candidate || "hasMore" in candidate);
      if (!holder) return undefined;
      if ((holder.has_more ?? holder.hasMore) !== true) return null;
      const id = isObject(last) ? last.id : undefined;
      return sendable(id) ? { starting_after: id } : `has_more is true but its last row has no id (${JSON.stringify(id) ?? "undefined"}) to start after`;
    },
    next: () => {
      const holder = holders.find((candidate) => "next" in candidate || "next_page_url" in candidate);
      if (!holder) return undefined;
      const target = holder.next ?? holder.next_page_url;
      if (target === null || target === undefined || target === "") return null;
      return typeof target === "string" ? follow(target, "its next") : `its next is ${JSON.stringify(target)}, no URL`;
    },
    link: () => {
      const header = response.headers.get("link");
      if (header === null) return undefined;
      const target = linkNext(header);
      return target === undefined ? null : follow(target, `its Link rel="next"`);
    },
  };
  /** A next page's URL, as this client's own leaderboard's query parameters (but `limit`, the caller's), or why not. */
  const follow = (target: string, what: string) => {
    let url: URL;
    try {
      url = new URL(target, response.url || own);
    } catch {
      return `${what} is no URL`;
    }
    if (url.origin !== own.origin || url.pathname !== own.pathname) return `${what} points to ${url.origin}${url.pathname}, not this client's ${own.origin}${own.pathname}`;
    // An empty parameter is none.
    return Object.fromEntries([...url.searchParams].filter(([name, value]) => name !== "limit" && value !== ""));
  };
  if (pinned === "none") return null;
  for (const style of pinned ? [pinned] : (["relay", "cursor", "page", "has-more", "next", "link"] as const)) {
    const next = styles[style]();
    if (next !== undefined) return next;
  }
  // Nothing followed: a page that still says there is more is no last page.
  const more = holders.flatMap((holder) => Object.entries(holder)).find(([name, value]) => /^(has_?more|more|next(_?(page|cursor|token|url|link|offset|key))*)$/i.test(name) && value !== null && value !== false && value !== "" && value !== undefined);
  return more ? `it says there is more (${more[0]}: ${JSON.stringify(more[1])}) in a form not followed` : null;
}

/** The target of the `rel="next"` link of an RFC 8288 `Link` header (`<…>; rel="next", <…>; rel="prev"`), if any. */
function linkNext(header: string): string | undefined {
  for (const [, target, params] of header.matchAll(/<([^>]*)>([^<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params!);
    if (rel && (rel[1] ?? rel[2])!.toLowerCase().split(/\s+/).includes("next")) return target;
  }
  return undefined;
}
