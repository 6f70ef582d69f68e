// @ts-nocheck
// 
/**
 * A hub widget: its name, the top stakers, and optionally one wallet's balance. Plain ESM with
 * JSDoc types (type-checked in CI), rendered with the DOM of `root` only.
 */
import { ForbiddenError, HubApiError, HubConnectionError, leaderboardRows } from "public-hub-sdk";

/**
 * @param {HTMLElement} root where to render
 * @param {import("public-hub-sdk").HubClient} hub a client of one hub
 * @param {string} [wallet] a wallet to show the balance of
 */
export async function renderHub(root, hub, wallet) {
  const doc = root.ownerDocument;
  const element = (/** @type {string} */ tag, /** @type {string} */ text) => Object.assign(doc.createElement(tag), { textContent: text });
  try {
    const [config, board] = await Promise.all([hub.getHub(), hub.getLeaderboard({ limit: 5 })]);
    const list = doc.createElement("ol");
    for (const row of leaderboardRows(board)) list.append(element("li", `${row.wallet} — ${row.staked ?? "?"} staked`));
    root.replaceChildren(element("h1", String(config.name ?? hub.hub)), list);
    if (wallet) {
      const holder = await hub.getHolder(wallet);
      root.append(element("p", `${wallet}: ${holder.bits ?? 0} points`));
    }
  } catch (error) {
    root.replaceChildren(element("p", describe(error)));
    root.dataset.error = error instanceof Error ? error.name : "unknown";
  }
}

/** @param {unknown} error */
function describe(error) {
  if (error instanceof ForbiddenError) return "This key belongs to another hub.";
  if (error instanceof HubApiError) return `The hub answered ${error.status}${error.code ? ` (${error.code})` : ""}.`;
  if (error instanceof HubConnectionError) return "The hub cannot be reached right now.";
  throw error;
}
