/**
 * A Node backend route that awards points: `POST /quests/{questId}/complete` with `{ "wallet" }`.
 * The secret stays here, on the server; the browser only calls this route.
 *
 *   HUB_BASE_URL=… HUB_CLIENT_ID=… HUB_SLUG=alpha HUB_SECRET=… npx tsx examples/node-backend/quest-route.ts
 */
// @ts-nocheck

import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from "node:http";
import { pathToFileURL } from "node:url";
import { HubApiError, HubServerClient, HubValidationError } from "public-hub-sdk/server";

const QUEST_POINTS = 25;

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

/** The route, given one server client (create it once: it derives the signing key once). */
export function questRoute(hub: HubServerClient): RequestListener {
  return async (req, res) => {
    const match = /^\/quests\/([^/]+)\/complete$/.exec(req.url ?? "");
    if (req.method !== "POST" || !match) return reply(res, 404, { error: "not found" });
    const questId = decodeURIComponent(match[1]!);
    const body = (await readJson(req)) as { wallet?: unknown } | undefined;
    try {
      const result = await hub.awardPoints({
        wallet: body?.wallet as string,
        amount: QUEST_POINTS,
        reason: `quest ${questId}`,
        // One award per quest and wallet, however often the player clicks or we retry.
        ref: `quest-${questId}:${String(body?.wallet)}`,
      });
      reply(res, 200, { awarded: QUEST_POINTS, duplicate: result.duplicate === true, balance: result.balance });
    } catch (error) {
      if (error instanceof HubValidationError) return reply(res, 400, { error: error.message });
      if (error instanceof HubApiError) return reply(res, 502, { error: `hub answered ${error.status}`, requestId: error.requestId });
      reply(res, 503, { error: "hub unreachable, try again" });
    }
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const hub = new HubServerClient({
    baseUrl: process.env.HUB_BASE_URL!,
    clientId: process.env.HUB_CLIENT_ID!,
    hub: process.env.HUB_SLUG!,
    secret: process.env.HUB_SECRET!,
  });
  createServer(questRoute(hub)).listen(3000, () => console.log("POST http://localhost:3000/quests/{id}/complete"));
}
