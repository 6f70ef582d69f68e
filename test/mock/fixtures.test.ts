import { describe, expect, it } from "vitest";
import { demoHubs, demoKeys } from "public-hub-sdk/mock";

// The demo data is documented (README, the mock's TSDoc): examples and users' tests rely on it.
describe("the mock's demo data", () => {
  it("hub alpha and hub beta, as documented", () => {
    expect(demoHubs()).toEqual({
      alpha: {
        config: {
          name: "Alpha Hub",
          description: "The demo hub of the public-hub-sdk mock.",
          token: { symbol: "ALP", decimals: 18 },
          theme: { accent: "#6b4eff" },
        },
        stakers: [
          { wallet: "0x1111111111111111111111111111111111111111", staked: 52_000 },
          { wallet: "0x2222222222222222222222222222222222222222", staked: 31_500 },
          { wallet: "0x3333333333333333333333333333333333333333", staked: 12_250 },
          { wallet: "0x4444444444444444444444444444444444444444", staked: 9_000 },
          { wallet: "0x5555555555555555555555555555555555555555", staked: 400 },
        ],
        holders: { "0x1111111111111111111111111111111111111111": 120, "0x2222222222222222222222222222222222222222": 45 },
        balances: { "0x1111111111111111111111111111111111111111": 250 },
      },
      beta: {
        config: { name: "Beta Hub", token: { symbol: "BET", decimals: 9 } },
        stakers: [{ wallet: "0x9999999999999999999999999999999999999999", staked: 1_000 }],
      },
    });
  });

  it("the demo keys and their secrets", () => {
    expect(demoKeys()).toEqual({
      pk_alpha_demo: { secret: "demo-secret-alpha", hub: "alpha" },
      pk_beta_demo: { secret: "demo-secret-beta", hub: "beta" },
    });
  });

  it("a fresh copy each call", () => {
    const hubs = demoHubs();
    hubs.alpha!.stakers.pop();
    expect(demoHubs().alpha!.stakers).toHaveLength(5);
  });
});
