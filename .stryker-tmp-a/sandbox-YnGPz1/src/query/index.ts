/**
 * `public-hub-sdk/query`: TanStack Query v5 options and keys for a `HubClient`'s reads.
 * Plain `{ queryKey, queryFn }` objects with no runtime import of TanStack or of any UI framework,
 * so React, Vue, Svelte, Solid and Angular adapters, `useSuspenseQuery` and a server-side
 * `prefetchQuery` all take them. `@tanstack/query-core` is needed for types only.
 *
 * @module public-hub-sdk/query
 * @example
 * ```ts
 * import { HubClient } from "public-hub-sdk";
 * import { hubKeys, hubQueries } from "public-hub-sdk/query";
 *
 * const hub = new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha", hub: "alpha" });
 * const q = hubQueries(hub);
 * const { data } = useQuery(q.leaderboard({ limit: 10 }));
 * await queryClient.invalidateQueries({ queryKey: hubKeys.holder(hub, wallet) });
 * ```
 */
// @ts-nocheck

export { hubQueries, type HubQueries, type HubQueryOptions, type HubQueryContext } from "./queries";
export { hubKeys, type HubKeys, type HubKeyScope, type HubRootKey, type HubQueryKey } from "./keys";
