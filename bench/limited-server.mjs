// A rate-limited API server for the benchmark, in its own process: a token bucket of RATE
// requests per second holding BURST, like nginx `limit_req … burst=BURST nodelay`, answering 429
// WITHOUT Retry-After above it (the hardest case: the client must find the rate itself). Awards
// are applied once per ref; the parent asks for the counts over IPC.
import { createServer } from "node:http";

const rate = Number(process.argv[2] ?? 100);
const burst = Number(process.argv[3] ?? 10);
let tokens = burst;
let refilled = performance.now();
const counts = { requests: 0, throttled: 0, applied: 0, duplicates: 0 };
const refs = new Set();

const server = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    counts.requests++;
    const now = performance.now();
    tokens = Math.min(burst, tokens + ((now - refilled) * rate) / 1000);
    refilled = now;
    const headers = { "content-type": "application/json", date: new Date().toUTCString() };
    if (tokens < 1) {
      counts.throttled++;
      res.writeHead(429, headers).end('{"error":"rate_limited"}');
      return;
    }
    tokens -= 1;
    const award = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
    const duplicate = refs.has(award.ref);
    if (duplicate) counts.duplicates++;
    else (refs.add(award.ref), counts.applied++);
    res.writeHead(200, headers).end(JSON.stringify({ ok: true, ref: award.ref, awarded: award.amount, duplicate }));
  });
});
server.keepAliveTimeout = 60_000;
process.on("message", (message) => {
  if (message === "counts") process.send({ counts });
  if (message === "reset") {
    Object.assign(counts, { requests: 0, throttled: 0, applied: 0, duplicates: 0 });
    refs.clear();
    tokens = burst;
  }
});
server.listen(0, "127.0.0.1", () => process.send?.({ port: server.address().port }));
process.on("disconnect", () => process.exit(0));
