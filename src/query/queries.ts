/**
 * @module
 * TanStack Query options for a {@link HubClient}'s reads, as plain objects: no import of React,
 * Vue, Svelte, Solid or TanStack at runtime, so every TanStack adapter (and a server prefetch)
 * takes them as they are.
 */
import type { HubClient, LeaderboardQuery } from "../client/hub-client";
import type { HubData, HubSchemas } from "../core/types/schemas";
import { hubKeys, normalizeLeaderboardQuery, type HubQueryKey } from "./keys";

/** What TanStack Query hands a query function; only the `signal` is used. */
export interface HubQueryContext {
  /** Aborted by TanStack when the query is cancelled (e.g. its last observer unmounts). */
  signal: AbortSignal;
}

/**
 * Options of one read for `useQuery`, `useSuspenseQuery`, `useQueries`, `fetchQuery`,
 * `prefetchQuery` or `ensureQueryData` (TanStack Query v5). Spread it to add your own options:
 * `useQuery({ ...q.holder(wallet), enabled: Boolean(wallet), staleTime: 30_000 })`.
 */
export interface HubQueryOptions<TData, TPath extends readonly unknown[]> {
  /** The key, as {@link hubKeys} builds it, tagged with `TData`. */
  queryKey: HubQueryKey<TData, TPath>;
  /** Runs the read, passing TanStack's `signal` to the client so a cancelled query aborts its request. */
  queryFn: (context: HubQueryContext) => Promise<TData>;
  /**
   * TanStack's own retries are off: the client already retries what is worth retrying (network
   * errors, 408, 429, 5xx, with backoff and `Retry-After`; its `retry` option), and a 4xx or a
   * `HubValidationError` would fail again. Override it by spreading, e.g. `{ ...q.hub(), retry: 3 }`.
   * @default false
   */
  retry: false;
}

/**
 * The query options of one hub's reads; see {@link hubQueries}. Their data types are those of the
 * client's `schemas` (`S`), the lenient ones for operations without a schema.
 */
export interface HubQueries<S extends HubSchemas = {}> {
  /** The discovery document (`HubClient.discover`). */
  discover(): HubQueryOptions<HubData<S, "discovery">, ["discover"]>;
  /** The hub's configuration (`HubClient.getHub`). */
  hub(): HubQueryOptions<HubData<S, "hub">, ["hub"]>;
  /**
   * The leaderboard (`HubClient.getLeaderboard`). A bad `limit` is not thrown here but when the
   * query runs: the query fails with `HubValidationError` and nothing is sent.
   */
  leaderboard(query?: LeaderboardQuery): HubQueryOptions<HubData<S, "leaderboard">, ["leaderboard", LeaderboardQuery]>;
  /**
   * One wallet's holder status (`HubClient.getHolder`). An empty wallet fails the query with
   * `HubValidationError` when it runs, so `enabled: Boolean(wallet)` can hold it back.
   * @example
   * ```ts
   * const { data: holder } = useQuery({ ...q.holder(wallet), enabled: Boolean(wallet) });
   * ```
   */
  holder(wallet: string): HubQueryOptions<HubData<S, "holder">, ["holder", string]>;
  /** One wallet's staking summary (`HubClient.getStakeStatus`). */
  stakeStatus(wallet: string): HubQueryOptions<HubData<S, "stakeStatus">, ["stake-status", string]>;
}

/**
 * TanStack Query options (`{ queryKey, queryFn, retry: false }`) for the reads of `hub`.
 *
 * Inputs are checked by the client when the query runs, not when the options are built: building
 * them never throws for a bad wallet or `limit` (so `enabled` can hold a query back until its
 * input exists), and running them fails with `HubValidationError` before anything is sent.
 * @throws {HubValidationError} when `hub` is not a client.
 * @example
 * ```ts
 * import { useQuery } from "@tanstack/react-query";
 * import { hubQueries } from "public-hub-sdk/query";
 *
 * const q = hubQueries(hub);
 * const { data, error } = useQuery(q.leaderboard({ limit: 10 }));
 * ```
 */
export function hubQueries<S extends HubSchemas = {}>(hub: HubClient<S>): HubQueries<S> {
  hubKeys.all(hub); // checks the client once, here
  return {
    discover: () => ({ queryKey: hubKeys.discover(hub), queryFn: ({ signal }) => hub.discover({ signal }), retry: false }),
    hub: () => ({ queryKey: hubKeys.hub(hub), queryFn: ({ signal }) => hub.getHub({ signal }), retry: false }),
    leaderboard: (query) => {
      // The same normalised copy goes into the key and the request: a later change to the
      // caller's object cannot make them disagree.
      const normalized = normalizeLeaderboardQuery(query);
      return { queryKey: hubKeys.leaderboard(hub, normalized), queryFn: ({ signal }) => hub.getLeaderboard(normalized, { signal }), retry: false };
    },
    holder: (wallet) => ({ queryKey: hubKeys.holder(hub, wallet), queryFn: ({ signal }) => hub.getHolder(wallet, { signal }), retry: false }),
    stakeStatus: (wallet) => ({ queryKey: hubKeys.stakeStatus(hub, wallet), queryFn: ({ signal }) => hub.getStakeStatus(wallet, { signal }), retry: false }),
  };
}
