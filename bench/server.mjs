// The benchmark's API server, in its own process: a keep-alive node:http server on 127.0.0.1
// answering the leaderboard and awards with fixed bodies. It does no signature check, so both
// sides of a comparison pay exactly the same server cost.
import { createServer } from "node:http";

const rows = Array.from({ length: 10 }, (_, i) => ({ rank: i + 1, wallet: `0x${String(i).repeat(40)}`, staked: 50_000 - i * 1_000 }));
const leaderboard = JSON.stringify({ hub: "alpha", limit: 10, total: 10, entries: rows });

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    const headers = { "content-type": "application/json", date: new Date().toUTCString() };
    if (req.method === "POST") {
      const award = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, headers).end(JSON.stringify({ ok: true, hub: "alpha", wallet: award.wallet, ref: award.ref, awarded: award.amount, balance: 1, duplicate: false }));
    } else {
      res.writeHead(200, headers).end(leaderboard);
    }
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => process.send?.({ port: server.address().port }));
process.on("disconnect", () => process.exit(0));
