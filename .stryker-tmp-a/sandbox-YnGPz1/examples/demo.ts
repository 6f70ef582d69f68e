/**
 * `npm run demo`: the SDK end to end. With no environment it runs against the embedded mock
 * (MSW intercepts fetch in-process: no network). With HUB_BASE_URL, HUB_CLIENT_ID and HUB_SLUG
 * set, the same calls go to that server; HUB_SECRET adds the signed award there too.
 */
// @ts-nocheck

import { setupServer } from "msw/node";
import { HubClient, leaderboardRows } from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";
import { HubServerClient } from "public-hub-sdk/server";

const env = process.env;
const real = Boolean(env.HUB_BASE_URL && env.HUB_CLIENT_ID && env.HUB_SLUG);
const mock = createHubMock();
const server = setupServer(...mock.handlers);
if (!real) server.listen({ onUnhandledRequest: "error" });

const options = real
  ? { baseUrl: env.HUB_BASE_URL!, clientId: env.HUB_CLIENT_ID!, hub: env.HUB_SLUG! }
  : { baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha" };
const secret = real ? env.HUB_SECRET : "demo-secret-alpha"; // the mock's demo key

const show = (title: string, value: unknown) => console.log(`\n## ${title}\n${JSON.stringify(value, null, 2)}`);

try {
  console.log(`Public Hub SDK demo against ${real ? options.baseUrl : `the embedded mock (${mock.baseUrl}, no network)`}`);

  // Browser-safe reads: the public client id only.
  const hub = new HubClient(options);
  const discovery = await hub.discover();
  show("discovery", { ...discovery, endpoints: discovery.endpoints?.length });
  show(`hub ${hub.hub}`, await hub.getHub());
  const rows = leaderboardRows(await hub.getLeaderboard({ limit: 3 }));
  show("leaderboard, top 3", rows);
  const wallet = env.HUB_WALLET ?? (typeof rows[0]?.wallet === "string" ? rows[0].wallet : "0x1111111111111111111111111111111111111111");
  show(`holder ${wallet}`, await hub.getHolder(wallet));
  show(`stake status ${wallet}`, await hub.getStakeStatus(wallet));

  // Server-only: a signed award, then the same award again. The ref makes it apply once.
  if (secret) {
    const backend = new HubServerClient({ ...options, secret });
    const award = { wallet, amount: 10, reason: "demo quest", ref: `demo-quest:${wallet}:${new Date().toISOString().slice(0, 10)}` };
    show("award (signed)", await backend.awardPoints(award));
    show("the same award replayed (same ref)", await backend.awardPoints(award));
    show(`holder ${wallet} after both`, await hub.getHolder(wallet));
    if (!real) {
      const applied = mock.ledger.filter((entry) => entry.ref === award.ref).length;
      console.log(`\nThe mock's ledger holds ${applied} award for ref ${award.ref}: sent twice, applied once.`);
    }
  } else {
    console.log("\n(HUB_SECRET not set: skipping the signed award.)");
  }
} finally {
  server.close();
}
