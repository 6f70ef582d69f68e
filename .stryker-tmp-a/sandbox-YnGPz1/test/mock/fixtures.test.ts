// @ts-nocheck
import { describe, expect, it } from "vitest";
import { HubClient, leaderboardRows } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { demoHubs, demoKeys } from "public-hub-sdk/mock";
import { useHubMock } from "../helpers/mock-server";

const { mock } = useHubMock();

// The README documents the demo hubs and keys: examples and users' tests sign and read with them.
describe("the mock's demo data", () => {
  it("each demo key reads its own hub and is refused (403) for the other", async () => {
    const keys = Object.entries(demoKeys());
    expect(keys.map(([, key]) => key.hub).sort()).toEqual(Object.keys(demoHubs()).sort());
    for (const [clientId, key] of keys) {
      const own = new HubClient({ baseUrl: mock.baseUrl, clientId, hub: key.hub, logLevel: "off" });
      await expect(own.getHub()).resolves.toMatchObject({ slug: key.hub, name: demoHubs()[key.hub]!.config.name });
      const other = keys.find(([, k]) => k.hub !== key.hub)![1].hub;
      await expect(new HubClient({ baseUrl: mock.baseUrl, clientId, hub: other, logLevel: "off", retry: 0 }).getHub()).rejects.toMatchObject({ status: 403 });
    }
  });

  it("each demo key's secret signs awards the mock accepts", async () => {
    for (const [clientId, key] of Object.entries(demoKeys())) {
      const server = new HubServerClient({ baseUrl: mock.baseUrl, clientId, hub: key.hub, secret: key.secret, logLevel: "off" });
      await expect(server.awardPoints({ wallet: "0xdemo", amount: 1, ref: `demo-${clientId}` })).resolves.toMatchObject({ duplicate: false });
    }
    expect(mock.ledger).toHaveLength(2);
  });

  it("the demo leaderboard ranks alpha's stakers by stake", async () => {
    const board = await new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", logLevel: "off" }).getLeaderboard();
    const byStake = [...demoHubs().alpha!.stakers].sort((a, b) => b.staked - a.staked).map((s) => s.wallet);
    expect(leaderboardRows(board).map((row) => [row.rank, row.wallet])).toEqual(byStake.map((wallet, i) => [i + 1, wallet]));
  });

  it("a fresh copy each call", () => {
    const hubs = demoHubs();
    hubs.alpha!.stakers.pop();
    expect(demoHubs().alpha!.stakers).toHaveLength(5);
  });
});

describe("the demo hubs' content", () => {
  it("alpha's config and the whole beta hub are the documented demo data", () => {
    const hubs = demoHubs();
    expect(hubs.alpha!.config).toEqual({
      name: "Alpha Hub",
      description: "The demo hub of the public-hub-sdk mock.",
      token: { symbol: "ALP", decimals: 18 },
      theme: { accent: "#6b4eff" },
    });
    expect(hubs.beta).toEqual({
      config: { name: "Beta Hub", token: { symbol: "BET", decimals: 9 } },
      stakers: [{ wallet: "0x9999999999999999999999999999999999999999", staked: 1_000 }],
    });
  });
});
