// A real HTTP server on 127.0.0.1 serving the packed package's MSW mock handlers: a thin node:http
// adapter around msw's getResponse, so the spec is implemented once (src/mock), not again here.
import { createServer } from "node:http";
import { getResponse } from "msw";
import { createHubMock } from "public-hub-sdk/mock";

export async function startApiServer({ host = "127.0.0.1" } = {}) {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, host, resolve));
  const origin = `http://${host}:${server.address().port}`;
  const mock = createHubMock({ baseUrl: `${origin}/api/v1` });
  const seen = { preflights: 0, requests: 0 };

  server.on("request", async (req, res) => {
    seen.requests++;
    if (req.method === "OPTIONS") seen.preflights++;
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const hasBody = req.method !== "GET" && req.method !== "HEAD" && chunks.length > 0;
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
      req.socket.destroy(); // the mock asked for a network error
      return;
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });

  return { origin, baseUrl: `${origin}/api/v1`, mock, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

// Run directly: serve until killed, printing the base URL (used by the runtime matrix).
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const api = await startApiServer();
  console.log(api.baseUrl);
}
