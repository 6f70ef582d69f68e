/**
 * @module
 * Query keys of the TanStack Query helpers. Every key starts with `["public-hub", baseUrl, hub]`,
 * so one `invalidateQueries` call reaches everything read from one hub, and two clients of
 * different servers or hubs never share a cache entry. Keys hold no credentials: only the base
 * address, the slug and the call's own inputs.
 */
import type { DataTag } from "@tanstack/query-core";
import type { HubClient, LeaderboardQuery } from "../client/hub-client";
// The error class alone, not client/check-input: sharing less with the root entry keeps its browser
// bundle as it was (measured: 7 bytes more with checks, 7 fewer with this).
import { HubValidationError } from "../core/errors";
import type { HubData, HubSchemas } from "../core/types/schemas";

/**
 * What every key is rooted at: a {@link HubClient} (or anything with its `baseUrl` and `hub`).
 * Pass the client itself, so the base address is the normalised one the client uses and the keys
 * are tagged with the data types of its `schemas`.
 * @example
 * ```ts
 * const scope: HubKeyScope = hub; // a HubClient
 * ```
 */
export type HubKeyScope<S extends HubSchemas = {}> = Pick<HubClient<S>, "baseUrl" | "hub"> & {
  /** The client's response shapes: the keys are tagged with their types. */
  readonly schemas?: S;
};

/** The prefix of every key of one hub: `["public-hub", baseUrl, hub]`. */
export type HubRootKey = readonly ["public-hub", baseUrl: string, hub: string];

/**
 * A key under {@link HubRootKey}, tagged with the data its query returns (TanStack's `DataTag`),
 * so `queryClient.getQueryData(key)` is typed.
 */
export type HubQueryKey<TData, TPath extends readonly unknown[]> = DataTag<readonly [...HubRootKey, ...TPath], TData>;

/**
 * The query keys of one hub's reads. Each read's key is the same whether it comes from here or
 * from {@link hubQueries}, so these are what to invalidate, prefetch or read from the cache.
 * @example
 * ```ts
 * await queryClient.invalidateQueries({ queryKey: hubKeys.holder(hub, wallet) });
 * await queryClient.invalidateQueries({ queryKey: hubKeys.all(hub) }); // every read of the hub
 * ```
 */
export interface HubKeys {
  /** The prefix shared by every key of the hub: invalidating it refreshes all of its reads. */
  all(scope: HubKeyScope): HubRootKey;
  /** Key of the discovery document (kept under the hub like the others, although it is per server). */
  discover<S extends HubSchemas = {}>(scope: HubKeyScope<S>): HubQueryKey<HubData<S, "discovery">, ["discover"]>;
  /** Key of the hub's configuration. */
  hub<S extends HubSchemas = {}>(scope: HubKeyScope<S>): HubQueryKey<HubData<S, "hub">, ["hub"]>;
  /**
   * Key of one leaderboard query. The query is normalised to the fields that are set, so
   * `leaderboard(hub)`, `leaderboard(hub, {})` and `leaderboard(hub, { limit: undefined })` are one
   * key. Used as a filter (TanStack matches object parts partially), the key without a `limit`
   * matches every leaderboard of the hub.
   * @example
   * ```ts
   * await queryClient.invalidateQueries({ queryKey: hubKeys.leaderboard(hub) }); // every limit
   * ```
   */
  leaderboard<S extends HubSchemas = {}>(scope: HubKeyScope<S>, query?: LeaderboardQuery): HubQueryKey<HubData<S, "leaderboard">, ["leaderboard", LeaderboardQuery]>;
  /** Key of one wallet's holder status. */
  holder<S extends HubSchemas = {}>(scope: HubKeyScope<S>, wallet: string): HubQueryKey<HubData<S, "holder">, ["holder", string]>;
  /** Key of one wallet's staking summary. */
  stakeStatus<S extends HubSchemas = {}>(scope: HubKeyScope<S>, wallet: string): HubQueryKey<HubData<S, "stakeStatus">, ["stake-status", string]>;
}

/** The leaderboard query as it goes into a key: only the fields that are set. */
export function normalizeLeaderboardQuery(query: LeaderboardQuery | undefined): LeaderboardQuery {
  return query?.limit === undefined ? {} : { limit: query.limit };
}

/** Checks the scope once, so that a missing client fails here and not as a `TypeError` later. */
function rootOf(scope: HubKeyScope): HubRootKey {
  const ok = typeof scope === "object" && scope !== null && typeof scope.baseUrl === "string" && typeof scope.hub === "string";
  if (!ok) throw new HubValidationError({ what: "query scope", issues: [{ path: [], code: "invalid_type", message: "expected a HubClient (with baseUrl and hub)" }] });
  return ["public-hub", scope.baseUrl, scope.hub];
}

// A key is a plain array at runtime; its data tag exists only in the declared return types, so the
// array is cast to whichever tagged key the method declares.
const tagged = (scope: HubKeyScope, ...path: unknown[]) => [...rootOf(scope), ...path] as never;

/**
 * Builds the query keys of a hub's reads; see {@link HubKeys}.
 * @example
 * ```ts
 * import { hubKeys } from "public-hub-sdk/query";
 *
 * hubKeys.leaderboard(hub, { limit: 10 }); // ["public-hub", "https://hub.example.com/api/v1", "alpha", "leaderboard", { limit: 10 }]
 * ```
 */
export const hubKeys: HubKeys = {
  all: rootOf,
  discover: (scope) => tagged(scope, "discover"),
  hub: (scope) => tagged(scope, "hub"),
  leaderboard: (scope, query) => tagged(scope, "leaderboard", normalizeLeaderboardQuery(query)),
  holder: (scope, wallet) => tagged(scope, "holder", wallet),
  stakeStatus: (scope, wallet) => tagged(scope, "stake-status", wallet),
};
