// Type-checked by `tsc --noEmit` in `npm test`, never run; test/readme/readme.test.ts checks that
// README.md shows exactly the code below the marker.
declare const baseUrl: string;
declare const clientId: string;
// ---- README.md ----
import { HubClient, leaderboardRows } from "public-hub-sdk";
import { schemas } from "./hub-schemas";

const hub = new HubClient({ baseUrl, clientId, hub: "alpha", schemas });
const holder = await hub.getHolder("0xabc…");           // { wallet: string; bits: number }
const points: number = holder.bits;                      // holder.bits.trim() does not compile
const { data: config } = await hub.getHub().withResponse(); // { slug: string; name: string }
for (const row of leaderboardRows(await hub.getLeaderboard())) console.log(row.rank, row.staked.toFixed(0));
const stake = await hub.getStakeStatus("0xabc…");        // no schema: the lenient StakeStatus
