import { QueryClient } from "@tanstack/query-core";
import { queryOptions, useQueries, useQuery, useSuspenseQuery } from "@tanstack/react-query";
import { describe, expectTypeOf, it } from "vitest";
import { HubClient, type HolderStatus, type HubConfig, type Leaderboard, type StakeStatus } from "public-hub-sdk";
import { hubKeys, hubQueries } from "public-hub-sdk/query";

// Type tests (vitest's typecheck mode, in `npm test`; `tsc --noEmit` checks them too): the options fit TanStack's own
// signatures (React adapter here; the others share query-core's types) and the keys carry data types.
const hub = new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha" });
const q = hubQueries(hub);

describe("types", () => {
  it("tags hubKeys with the data of their query, for getQueryData and setQueryData", () => {
    const qc = new QueryClient();
    expectTypeOf(qc.getQueryData(hubKeys.holder(hub, "0xabc"))).toEqualTypeOf<HolderStatus | undefined>();
    expectTypeOf(qc.getQueryData(q.hub().queryKey)).toEqualTypeOf<HubConfig | undefined>();
    expectTypeOf(qc.getQueryData(hubKeys.leaderboard(hub))).toEqualTypeOf<Leaderboard | undefined>();
    expectTypeOf(qc.fetchQuery(q.stakeStatus("0xabc"))).resolves.toEqualTypeOf<StakeStatus>();
    // @ts-expect-error a holder key does not hold a hub configuration
    qc.setQueryData(hubKeys.holder(hub, "0xabc"), "not a holder status");
  });

  it("fits useQuery, useSuspenseQuery, useQueries and queryOptions", () => {
    // Never called (hooks need a component); only type-checked.
    const component = () => {
      expectTypeOf(useQuery(q.leaderboard({ limit: 10 })).data).toEqualTypeOf<Leaderboard | undefined>();
      expectTypeOf(useQuery({ ...q.holder(""), enabled: false, select: (holder) => holder.bits }).data).toEqualTypeOf<unknown>();
      expectTypeOf(useSuspenseQuery(q.hub()).data).toEqualTypeOf<HubConfig>();
      expectTypeOf(useQueries({ queries: [q.hub(), q.stakeStatus("0xabc")] })[1].data).toEqualTypeOf<StakeStatus | undefined>();
      expectTypeOf(queryOptions(q.discover()).queryKey).toEqualTypeOf(q.discover().queryKey);
    };
    expectTypeOf(component).toBeFunction();
  });
});
