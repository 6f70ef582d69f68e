// A tiny HTTP proxy that counts what reaches a hub: put it in front of any hub (here the CLI's
// `public-hub mock`) and give its address to the clients. Each request is forwarded as it came
// (method, path, headers, body) over keep-alive connections; each answer is sent back as it came,
// except that `stripRetryAfter` removes `Retry-After` from 429s (a throttle that says nothing at
// all). For the award route it records every answer's status and the time it was sent to the hub.
import { Agent, createServer, request } from "node:http";
import { once } from "node:events";

/** The spec's one write: `POST /hub/{slug}/bits/earn`. */
export const isAwardRoute = (method, path) => method === "POST" && /\/hub\/[^/]+\/bits\/earn$/.test(path);

/**
 * Starts the proxy on a free loopback port in front of `target` (an origin, `http://host:port`).
 * Returns `{ origin, stats, reset(), close() }`; `stats` holds, for the award route: `posts`
 * (requests), `statuses` (answers by status; 502 when the hub could not be reached), `sentAt`
 * (performance.now() of each request, in order) and `acceptedAt` (of each 2xx answer's request).
 */
export async function startCountingProxy(target, { stripRetryAfter = false } = {}) {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const stats = {};
  const reset = () => Object.assign(stats, { posts: 0, statuses: {}, sentAt: [], acceptedAt: [], otherRequests: 0 });
  reset();
  const record = (status, at) => {
    stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
    if (status >= 200 && status < 300) stats.acceptedAt.push(at);
  };

  const server = createServer((req, res) => {
    const award = isAwardRoute(req.method, (req.url ?? "/").split("?")[0]);
    const at = performance.now();
    if (award) {
      stats.posts++;
      stats.sentAt.push(at);
    } else stats.otherRequests++;
    const forward = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent }, (answer) => {
      const headers = { ...answer.headers };
      if (stripRetryAfter && answer.statusCode === 429) delete headers["retry-after"];
      if (award) record(answer.statusCode, at);
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    forward.on("error", () => {
      if (award) record(502, at);
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("bad gateway");
      else res.destroy();
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 30_000;
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    stats,
    reset,
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
