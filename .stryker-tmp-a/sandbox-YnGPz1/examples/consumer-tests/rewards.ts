/**
 * A consumer app's reward logic, tested in `rewards.test.ts` against `public-hub-sdk/mock`.
 */
// @ts-nocheck

import { leaderboardRows, type HubClient } from "public-hub-sdk";
import type { HubServerClient } from "public-hub-sdk/server";
import type { schemas } from "./hub-schemas";

/** Grants the daily-login bonus once per wallet and day, however often it is called. */
export async function grantDailyLogin(hub: HubServerClient<typeof schemas>, wallet: string, day: string): Promise<{ newlyGranted: boolean; balance: number }> {
  const result = await hub.awardPoints({ wallet, kind: "daily-login", ref: `login-${day}:${wallet}` });
  return { newlyGranted: !result.duplicate, balance: result.balance };
}

/** The wallets of the top stakers, for a "champions" banner. */
export async function champions(hub: HubClient<typeof schemas>, count: number): Promise<string[]> {
  const rows = leaderboardRows(await hub.getLeaderboard({ limit: count }));
  return rows.map((row) => row.wallet);
}
