/**
 * `npm run demo`: the SDK end to end. With no environment it runs against the embedded mock
 * (MSW intercepts fetch in-process: no network). With HUB_BASE_URL, HUB_CLIENT_ID and HUB_SLUG
 * set, the same reads go to that server.
 */
import { setupServer } from "msw/node";
import { HubClient, leaderboardRows } from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";

const real = process.env.HUB_BASE_URL && process.env.HUB_CLIENT_ID && process.env.HUB_SLUG;
const mock = createHubMock();
const server = setupServer(...mock.handlers);
if (!real) server.listen({ onUnhandledRequest: "error" });

const options = real
  ? { baseUrl: process.env.HUB_BASE_URL!, clientId: process.env.HUB_CLIENT_ID!, hub: process.env.HUB_SLUG! }
  : { baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha" };

const show = (title: string, value: unknown) => console.log(`\n## ${title}\n${JSON.stringify(value, null, 2)}`);

try {
  console.log(`Public Hub SDK demo against ${real ? options.baseUrl : `the embedded mock (${mock.baseUrl})`}`);
  const hub = new HubClient(options);
  show("discovery", await hub.discover());
  show(`hub ${hub.hub}`, await hub.getHub());
  const board = await hub.getLeaderboard({ limit: 3 });
  const rows = leaderboardRows(board);
  show("leaderboard, top 3", rows);
  const wallet = process.env.HUB_WALLET ?? (typeof rows[0]?.wallet === "string" ? rows[0].wallet : "0x1111111111111111111111111111111111111111");
  show(`holder ${wallet}`, await hub.getHolder(wallet));
  show(`stake status ${wallet}`, await hub.getStakeStatus(wallet));
} finally {
  server.close();
}
