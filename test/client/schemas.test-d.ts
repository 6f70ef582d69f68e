import { QueryClient } from "@tanstack/query-core";
import { useQuery, useSuspenseQuery } from "@tanstack/react-query";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import * as z from "zod";
import { HubClient, leaderboardRows, type HolderStatus, type HubConfig, type HubSchemas, type LeaderboardRow, type LeaderboardRowOf, type StakeStatus } from "public-hub-sdk";
import { hubKeys, hubQueries } from "public-hub-sdk/query";
import { HubServerClient, type AwardResult } from "public-hub-sdk/server";
import type { HubServerClient as BrowserHubServerClient } from "../../src/server/browser";
import { ROW_KEYS } from "../../src/client/leaderboard-rows";
import { HUB_OPERATIONS, VALIDATE_MODES, type ValidateMode } from "../../src/core/types/schemas";

// Type tests (vitest's typecheck mode, in `npm test`; `tsc --noEmit` checks them too): the shapes
// declared once in a client's `schemas` type every place its data goes, and a wrong use of a field
// does not compile.
// Nothing here runs: the file is type-checked, never executed.
const schemas = {
  holder: z.object({ wallet: z.string(), bits: z.number() }),
  stakeStatus: v.object({ staked: v.number(), rank: v.nullable(v.number()) }),
  leaderboard: z.object({ entries: z.array(z.object({ rank: z.number(), wallet: z.string(), staked: z.number() })) }),
  award: z.object({ ref: z.string(), balance: z.number() }),
} satisfies HubSchemas;
type Holder = { wallet: string; bits: number };
type Row = { rank: number; wallet: string; staked: number };
const fetch = () => new Promise<Response>(() => undefined);
const options = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", fetch, timeout: false } as const;
const hub = new HubClient({ ...options, schemas });
const plain = new HubClient(options);

describe("types from schemas", () => {
  it("each read returns its schema's output (zod and valibot), withResponse().data too", () => {
    expectTypeOf(hub.getHolder("0xabc")).resolves.toEqualTypeOf<Holder>();
    expectTypeOf(hub.getStakeStatus("0xabc")).resolves.toEqualTypeOf<{ staked: number; rank: number | null }>();
    expectTypeOf(hub.getHolder("0xabc").withResponse()).resolves.toHaveProperty("data").toEqualTypeOf<Holder>();
    expectTypeOf(hub.schemas).toEqualTypeOf(schemas);
  });

  it("a wrong field use does not compile", () => {
    const use = async () => {
      const holder = await hub.getHolder("0xabc");
      const bits: number = holder.bits;
      // @ts-expect-error bits is a number, not a string
      holder.bits.toUpperCase();
      // @ts-expect-error no such field: the schema declares `bits`
      void holder.balance;
      // @ts-expect-error a string is no number
      const wallet: number = holder.wallet;
      return bits + wallet;
    };
    expectTypeOf(use).returns.resolves.toBeNumber();
  });

  it("an operation without a schema, and a client without schemas, keep the lenient types", () => {
    expectTypeOf(hub.getHub()).resolves.toEqualTypeOf<HubConfig>();
    expectTypeOf(plain.getHolder("0xabc")).resolves.toEqualTypeOf<HolderStatus>();
    expectTypeOf(plain.getStakeStatus("0xabc")).resolves.toEqualTypeOf<StakeStatus>();
    expectTypeOf(plain.schemas).toEqualTypeOf<{}>();
    // An untyped client (JSDoc's `HubClient`, `HubClient<any>`) is lenient, not `unknown`.
    const untyped = () => (plain as HubClient<any>).getHolder("0xabc");
    expectTypeOf(untyped).returns.resolves.toEqualTypeOf<HolderStatus>();
  });

  it("a call's own schema overrides the client's", () => {
    expectTypeOf(hub.getHolder("0xabc", { schema: z.object({ tokens: z.number() }) })).resolves.toEqualTypeOf<{ tokens: number }>();
  });

  it("a typed client goes wherever a HubClient is expected", () => {
    const name = (client: HubClient) => client.hub;
    expectTypeOf(name(hub)).toBeString();
    // @ts-expect-error a client without schemas is not one with them
    const typed: HubClient<typeof schemas> = plain;
    expectTypeOf(typed).not.toBeAny();
  });

  it("HubServerClient: reads and awards", () => {
    const server = new HubServerClient({ ...options, secret: "s", schemas });
    expectTypeOf(server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r" })).resolves.toEqualTypeOf<{ ref: string; balance: number }>();
    expectTypeOf(server.getHolder("0xabc")).resolves.toEqualTypeOf<Holder>();
    // Under the `browser` condition the same annotation names the refusing class.
    expectTypeOf<BrowserHubServerClient<typeof schemas>>().toHaveProperty("awardPoints");
    const lenient = new HubServerClient({ ...options, secret: "s" });
    expectTypeOf(lenient.awardPoints({ wallet: "0xabc", amount: 1, ref: "r" })).resolves.toEqualTypeOf<AwardResult>();
  });

  it("leaderboardRows keeps the rows' declared type", () => {
    const use = async () => {
      expectTypeOf(leaderboardRows(await hub.getLeaderboard())).toEqualTypeOf<Row[]>();
      expectTypeOf(leaderboardRows(await plain.getLeaderboard())).toEqualTypeOf<LeaderboardRow[]>();
      // @ts-expect-error staked is a number
      leaderboardRows(await hub.getLeaderboard())[0]?.staked.trim();
    };
    expectTypeOf(use).toBeFunction();
    expectTypeOf(leaderboardRows([{ rank: 1 }])).toEqualTypeOf<{ rank: number }[]>();
  });

  it("hubQueries and hubKeys infer from the same client: TanStack's data is typed with no queryFn", () => {
    const q = hubQueries(hub);
    const qc = new QueryClient();
    expectTypeOf(qc.getQueryData(hubKeys.holder(hub, "0xabc"))).toEqualTypeOf<Holder | undefined>();
    expectTypeOf(qc.getQueryData(q.leaderboard().queryKey)).toEqualTypeOf<{ entries: Row[] } | undefined>();
    expectTypeOf(qc.getQueryData(hubKeys.hub(hub))).toEqualTypeOf<HubConfig | undefined>();
    expectTypeOf(qc.getQueryData(hubKeys.holder(plain, "0xabc"))).toEqualTypeOf<HolderStatus | undefined>();
    expectTypeOf(qc.fetchQuery(q.stakeStatus("0xabc"))).resolves.toEqualTypeOf<{ staked: number; rank: number | null }>();
    // @ts-expect-error the holder key holds a Holder
    qc.setQueryData(hubKeys.holder(hub, "0xabc"), { wallet: "0xabc", bits: "12" });
    const component = () => {
      expectTypeOf(useQuery(q.holder("0xabc")).data).toEqualTypeOf<Holder | undefined>();
      expectTypeOf(useSuspenseQuery(q.holder("0xabc")).data.bits).toBeNumber();
      expectTypeOf(leaderboardRows(useSuspenseQuery(q.leaderboard()).data)).toEqualTypeOf<Row[]>();
    };
    expectTypeOf(component).toBeFunction();
  });
});

it("a Relay connection's row type is its edges' node", () => {
  expectTypeOf<LeaderboardRowOf<{ edges: Array<{ node: { rank: number }; cursor: string }>; pageInfo: object }>>().toEqualTypeOf<{ rank: number }>();
});

describe("the lenient types allow any field", () => {
  it("a leaderboard without a schema reads any field (its page cursor, say) as unknown, without narrowing", () => {
    const hub = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha" });
    const read = async () => {
      const board = await hub.getLeaderboard();
      expectTypeOf(board.nextCursor).toEqualTypeOf<unknown>();
      expectTypeOf(board.next).toEqualTypeOf<unknown>();
      if (Array.isArray(board)) expectTypeOf(board[0]).toEqualTypeOf<LeaderboardRow | undefined>();
    };
    void read;
  });
});

describe("the lists the schemas' checks use at run time", () => {
  it("are the types' own: operations, modes, row keys", () => {
    expectTypeOf<(typeof HUB_OPERATIONS)[number]>().toEqualTypeOf<keyof HubSchemas>();
    expectTypeOf<(typeof VALIDATE_MODES)[number]>().toEqualTypeOf<ValidateMode>();
    type EveryKey = { [K in (typeof ROW_KEYS)[number]]: { id: K }[] };
    expectTypeOf<LeaderboardRowOf<EveryKey>>().toEqualTypeOf<{ [K in (typeof ROW_KEYS)[number]]: { id: K } }[(typeof ROW_KEYS)[number]]>();
  });
});
