// The server clock from servers of our own: a cached copy's Date (with Age) must not move it, a
// missing Date must not change it, and no award may cost a refused attempt because of either.
import { HubServerClient } from "public-hub-sdk/server";
import { startApiServer } from "../api-server.mjs";
import { WALLET, credentials, secret } from "./expectations.mjs";

const TWO_HOURS_MS = 2 * 60 * 60 * 1000;
const refusedAwards = (api, from) => api.log.slice(from).filter((entry) => entry.method === "POST" && entry.status >= 400);
const posts = (api, from) => api.log.slice(from).filter((entry) => entry.method === "POST").map((entry) => entry.status);

export async function clockChecks({ check, expect, describe }) {
  await check("a CDN's cached read (Date 2 h old, Age: 7200) does not move the clock: zero refused awards", async () => {
    // Reads come from the CDN's cache; awards (POST) reach the origin, whose Date is now.
    const api = await startApiServer({
      wsgi: true,
      rewrite: (req, status, headers) => {
        if (req.method !== "GET") return;
        headers.date = new Date(Date.now() - TWO_HOURS_MS).toUTCString();
        headers.age = "7200";
      },
    });
    try {
      const server = new HubServerClient({ baseUrl: api.baseUrl, ...credentials, secret });
      const offsets = [];
      for (let i = 0; i < 3; i++) {
        await server.getHub();
        offsets.push(server.clockOffsetMs);
        const result = await server.awardPoints({ wallet: WALLET, amount: 1, ref: `cdn:${Date.now()}:${i}` }).catch((e) => e);
        expect(!(result instanceof Error), () => `award ${i + 1}: ${describe(result)}`);
      }
      const refused = refusedAwards(api, 0);
      expect(refused.length === 0 && offsets.every((ms) => Math.abs(ms) < 5000), `${refused.length} refused award attempts (POST statuses ${JSON.stringify(posts(api, 0))}); clockOffsetMs after each cached read: ${JSON.stringify(offsets)}`);
      return `3 reads + 3 awards, POST statuses ${JSON.stringify(posts(api, 0))}, offsets ${JSON.stringify(offsets)} ms`;
    } finally {
      await api.close();
    }
  });

  await check("an answer without Date leaves the learned clock offset as it was (no NaN)", async () => {
    let sendDate = true;
    // The server's clock is 10 minutes ahead: an award signed on the local clock would be refused.
    const api = await startApiServer({
      wsgi: true,
      mockOptions: { clockOffsetMs: 10 * 60 * 1000 },
      // Its answers are no cache's to keep: one read's Date is enough (a read a cache may have kept counts when a second agrees).
      rewrite: (req, status, headers) => {
        headers["cache-control"] = "no-store";
        if (!sendDate) delete headers.date;
      },
    });
    try {
      const server = new HubServerClient({ baseUrl: api.baseUrl, ...credentials, secret });
      await server.getHub();
      const learned = server.clockOffsetMs;
      expect(Math.abs(learned - 600_000) < 5000, `offset after a read with Date: ${learned} ms, expected about 600000`);
      sendDate = false;
      await server.getHub();
      const after = server.clockOffsetMs;
      const result = await server.awardPoints({ wallet: WALLET, amount: 1, ref: `no-date:${Date.now()}` }).catch((e) => e);
      expect(after === learned, `offset ${learned} ms became ${after} after an answer without Date`);
      expect(!(result instanceof Error) && refusedAwards(api, 0).length === 0, () => `award: ${result instanceof Error ? describe(result) : "ok"}; POST statuses ${JSON.stringify(posts(api, 0))}`);
      expect(server.clockOffsetMs === learned, `offset ${learned} ms became ${server.clockOffsetMs} after an award answered without Date`);
      return `offset stayed ${learned} ms; award accepted first time (POST statuses ${JSON.stringify(posts(api, 0))})`;
    } finally {
      await api.close();
    }
  });
}
