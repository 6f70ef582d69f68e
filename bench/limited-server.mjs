// A rate-limited API server for the benchmark, in its own process. Mode "silent" (the default): a
// token bucket of RATE requests per second holding BURST, like nginx `limit_req … burst=BURST
// nodelay`, answering 429 WITHOUT Retry-After above it. The announcing modes keep a fixed window
// of RATE per second and say so: "ietf" (`RateLimit-Policy: "default";q=RATE;w=1` and
// `RateLimit: "default";r=…;t=…`), "ietf-retry" (the same, and `Retry-After` on its 429s),
// "x-ratelimit" (`X-RateLimit-Limit/-Remaining/-Reset`, the reset as an epoch time), "x-ratelimit-ms"
// (the same, the reset in epoch milliseconds), "slowapi" (FastAPI's slowapi with its defaults: a
// window that starts at its first request, `X-RateLimit-Reset` the window's end in epoch seconds
// plus 1, `Retry-After` in seconds on its 429s), "express-draft7" (express-rate-limit's
// `standardHeaders: "draft-7"`: `RateLimit-Policy: RATE;w=1` and `RateLimit: limit=RATE,
// remaining=…, reset=…`, the reset in seconds from now), "drf" (Django REST framework's
// SimpleRateThrottle: a sliding window of RATE per second, its 429s saying `Retry-After` — its
// wait rounded up, 1 — and nothing else). Awards are
// applied once per ref; the parent asks for the counts over IPC.
import { createServer } from "node:http";

const rate = Number(process.argv[2] ?? 100);
const burst = Number(process.argv[3] ?? 10);
const mode = process.argv[4] ?? "silent";
let window = 0;
let used = 0;

/** An announcing hub's fixed window: whether this request fits, and the headers that say what is left. */
let slowEnd = 0;
/** DRF's throttle history, newest first. */
const history = [];
function announced(headers) {
  const now = Date.now();
  if (mode === "drf") {
    while (history.length > 0 && history.at(-1) <= now - 1000) history.pop();
    if (history.length < rate) return history.unshift(now), true;
    // DRF's wait(): the oldest entry's remaining time over the requests available, rounded up.
    const wait = (1000 - (now - history.at(-1))) / 1000 / Math.max(1, rate - history.length + 1);
    headers["retry-after"] = String(Math.ceil(wait));
    return false;
  }
  if (mode === "slowapi") {
    if (now >= slowEnd) (slowEnd = now + 1000), (used = 0);
    const fits = used < rate;
    if (fits) used++;
    const reset = Math.floor(slowEnd / 1000) + 1;
    Object.assign(headers, { "x-ratelimit-limit": String(rate), "x-ratelimit-remaining": String(rate - used), "x-ratelimit-reset": String(reset) });
    if (!fits) headers["retry-after"] = String(Math.max(0, Math.floor(reset - now / 1000)));
    return fits;
  }
  const current = Math.floor(now / 1000);
  if (current !== window) (window = current), (used = 0);
  const fits = used < rate;
  if (fits) used++;
  const remaining = rate - used;
  const reset = Math.max(1, Math.ceil((current + 1) * 1000 - now) / 1000);
  if (mode === "x-ratelimit") Object.assign(headers, { "x-ratelimit-limit": String(rate), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String(current + 1) });
  else if (mode === "x-ratelimit-ms") Object.assign(headers, { "x-ratelimit-limit": String(rate), "x-ratelimit-remaining": String(remaining), "x-ratelimit-reset": String((current + 1) * 1000) });
  else if (mode === "express-draft7") Object.assign(headers, { "ratelimit-policy": `${rate};w=1`, ratelimit: `limit=${rate}, remaining=${remaining}, reset=${Math.ceil(reset)}` });
  else Object.assign(headers, { "ratelimit-policy": `"default";q=${rate};w=1`, ratelimit: `"default";r=${remaining};t=${Math.ceil(reset)}` });
  if (!fits && mode === "ietf-retry") headers["retry-after"] = "1";
  return fits;
}
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
    if (mode !== "silent" ? !announced(headers) : tokens < 1) {
      counts.throttled++;
      res.writeHead(429, headers).end('{"error":"rate_limited"}');
      return;
    }
    if (mode === "silent") tokens -= 1;
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
