/**
 * A consumer app's reward logic, tested in `rewards.test.ts` against `public-hub-sdk/mock`.
 */
import { leaderboardRows, type HubClient } from "public-hub-sdk";
import type { HubServerClient } from "public-hub-sdk/server";

/** Grants the daily-login bonus once per wallet and day, however often it is called. */
export async function grantDailyLogin(hub: HubServerClient, wallet: string, day: string) {
  const result = await hub.awardPoints({ wallet, kind: "daily-login", ref: `login-${day}:${wallet}` });
  return { newlyGranted: result.duplicate !== true, balance: result.balance };
}

/** The wallets of the top stakers, for a "champions" banner. */
export async function champions(hub: HubClient, count: number): Promise<string[]> {
  const rows = leaderboardRows(await hub.getLeaderboard({ limit: count }));
  return rows.map((row) => String(row.wallet));
}
