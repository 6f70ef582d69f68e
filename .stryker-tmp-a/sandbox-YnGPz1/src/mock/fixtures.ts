// @ts-nocheck
import type { MockHub, MockKey } from "./types";

/**
 * Demo hubs: `alpha` (a few stakers and holders) and `beta` (one staker). A fresh copy each call.
 * @example
 * ```ts
 * const hubs = demoHubs();
 * hubs.alpha.stakers.push({ wallet: "0xnew", staked: 1 });
 * const mock = createHubMock({ hubs });
 * ```
 */
export const demoHubs = (): Record<string, MockHub> => ({
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
    holders: {
      "0x1111111111111111111111111111111111111111": 120,
      "0x2222222222222222222222222222222222222222": 45,
    },
    balances: { "0x1111111111111111111111111111111111111111": 250 },
  },
  beta: {
    config: { name: "Beta Hub", token: { symbol: "BET", decimals: 9 } },
    stakers: [{ wallet: "0x9999999999999999999999999999999999999999", staked: 1_000 }],
  },
});

/**
 * Demo keys: `pk_alpha_demo` (secret `demo-secret-alpha`, hub `alpha`) and `pk_beta_demo`. The
 * secrets are fake and only mean something to the mock.
 * @example
 * ```ts
 * const mock = createHubMock({ keys: { ...demoKeys(), pk_test: { secret: "s", hub: "alpha" } } });
 * ```
 */
export const demoKeys = (): Record<string, MockKey> => ({
  pk_alpha_demo: { secret: "demo-secret-alpha", hub: "alpha" },
  pk_beta_demo: { secret: "demo-secret-beta", hub: "beta" },
});
