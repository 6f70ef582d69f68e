// A real HTTP server on 127.0.0.1 serving the packed package's MSW mock handlers: a thin node:http
// adapter around msw's getResponse, so the spec is implemented once (src/mock), not again here.
import { createServer } from "node:http";
import { getResponse } from "msw";
import { createHubMock } from "public-hub-sdk/mock";

/**
 * Options (all optional; the runtime matrix uses none):
 * - `wsgi`: read a body only when the request has `content-length`, as WSGI servers and some
 *   gateways do: a chunked POST then arrives empty (and its signature fails).
 * - `mockOptions`: passed to `createHubMock`.
 * - `intercept(req, res, api)`: runs first; return true when it answered the request itself.
 * - `rewrite(req, status, headers)`: edits the answer's headers (a plain object) before sending.
 * `api.log` lists every request: method, path, status, content-length, transfer-encoding.
 */
export async function startApiServer({ host = "127.0.0.1", wsgi = false, mockOptions = {}, intercept, rewrite } = {}) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${server.address().port}`;
  // The suites count every request of a campaign of thousands: the whole log.
  const mock = createHubMock({ requestLog: Infinity, ...mockOptions, baseUrl: `${origin}/api/v1` });
  const seen = { preflights: 0, requests: 0 };
  const log = [];
  const api = { origin, baseUrl: `${origin}/api/v1`, mock, seen, log, server };

  server.on("request", async (req, res) => {
    seen.requests++;
    if (req.method === "OPTIONS") seen.preflights++;
    const entry = { method: req.method, path: req.url, contentLength: req.headers["content-length"], transferEncoding: req.headers["transfer-encoding"], status: undefined };
    log.push(entry);
    res.on("finish", () => (entry.status = res.statusCode));
    if (intercept && (await intercept(req, res, api))) return;
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const bodyIgnored = wsgi && req.headers["content-length"] === undefined;
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0 && !bodyIgnored;
    const request = new Request(new URL(req.url, origin), {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, value]])),
      body: hasBody ? Buffer.concat(chunks) : undefined,
    });
    const response = await getResponse(mock.handlers, request);
    if (!response) {
      res.writeHead(404, { "content-type": "text/plain", "access-control-allow-origin": "*" }).end("no handler");
      return;
    }
    if (response.type === "error") {
      req.socket.resetAndDestroy(); // the mock asked for a network error: a TCP reset
      return;
    }
    const headers = Object.fromEntries(response.headers);
    if (rewrite) {
      rewrite(req, response.status, headers);
      if (!("date" in headers)) res.sendDate = false; // node:http would add one of its own
    }
    res.writeHead(response.status, headers);
    res.end(Buffer.from(await response.arrayBuffer()));
  });

  api.close = () => new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(resolve);
  });
  return api;
}

// Run directly: serve until killed, printing the base URL (used by the runtime matrix).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const api = await startApiServer();
  console.log(api.baseUrl);
}
