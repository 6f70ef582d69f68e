// A Public Hub on express 5, written as an express user would: a router under /api/v1, JSON
// errors `{ error: { code, message } }` from its own helper and error handler, every success in a
// `data` envelope, an `x-request-id` on every answer, express-rate-limit with draft-7 headers
// (`RateLimit-Policy`, `RateLimit: limit=…, remaining=…, reset=…`), a bare-array leaderboard, and
// a `ref` used again answered 409 `duplicate_ref` (same parameters) or 409 `ref_conflict` (other
// ones). The raw body for the signature comes from express.json's `verify` hook.
// `node test/e2e/framework-hubs/express.mjs --port 0`, or `start({ port })` → `{ url, origin, stop }`.
// GET /__ledger (test only, outside the API) lists the applied awards.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createStore, discovery, keyProblem, limitOf, need, PREFIX, ranked, runFromCommandLine, SEED, signatureProblem } from "./common.mjs";

const express = need("express");
const { rateLimit } = need("express-rate-limit");

const fail = (res, status, code, message) => res.status(status).json({ error: { code, message } });

export async function start({ port = 0, host = "127.0.0.1" } = {}) {
  const store = createStore();
  const app = express();

  app.use((req, res, next) => {
    res.set("x-request-id", req.get("x-request-id") ?? randomUUID());
    res.set("access-control-allow-origin", "*");
    next();
  });
  app.get("/__ledger", (_req, res) => res.json(store.ledger));
  app.use(
    rateLimit({
      windowMs: 60_000,
      limit: 600,
      standardHeaders: "draft-7",
      legacyHeaders: false,
      handler: (_req, res) => fail(res, 429, "rate_limited", "Too many requests, slow down."),
    }),
  );
  app.use(express.json({ verify: (req, _res, buffer) => (req.rawBody = buffer.toString("utf8")) }));

  const api = express.Router();
  const authenticate = (req, res, next) => {
    const problem = keyProblem(req.get("x-api-key"), req.params.slug);
    if (problem) return fail(res, problem.status, problem.code, problem.message);
    next();
  };
  const verifySignature = (req, res, next) => {
    const problem = signatureProblem({
      clientId: req.get("x-api-key"),
      timestamp: req.get("x-api-timestamp"),
      signature: req.get("x-api-signature"),
      method: req.method,
      path: req.originalUrl.split("?")[0],
      body: req.rawBody ?? "",
    });
    if (problem) return fail(res, 401, problem.code, problem.message);
    next();
  };

  api.get("/", (_req, res) => res.json({ data: discovery("express") }));
  api.get("/hub/:slug", authenticate, (req, res) => res.json({ data: { slug: req.params.slug, ...SEED.config } }));
  api.get("/hub/:slug/leaderboard", authenticate, (req, res) => res.json({ data: ranked().slice(0, limitOf(req.query.limit)) }));
  api.get("/hub/:slug/holder/:wallet", authenticate, (req, res) => res.json({ data: { hub: req.params.slug, ...store.holder(req.params.wallet) } }));
  api.get("/hub/:slug/stake-status", authenticate, (req, res) => {
    const wallet = req.query.wallet;
    if (typeof wallet !== "string" || wallet === "") return fail(res, 400, "missing_wallet", "The wallet query parameter is required.");
    res.json({ data: { hub: req.params.slug, ...store.stake(wallet) } });
  });
  api.post("/hub/:slug/bits/earn", authenticate, verifySignature, (req, res) => {
    if (!req.is("application/json")) return fail(res, 415, "unsupported_content_type", "The body must be application/json.");
    const body = req.body;
    const problems = [];
    if (typeof body !== "object" || body === null || Array.isArray(body)) problems.push("the body must be a JSON object");
    else {
      if (typeof body.wallet !== "string" || body.wallet.trim() === "") problems.push("wallet must be a non-empty string");
      if (typeof body.amount !== "number" || !Number.isFinite(body.amount) || body.amount <= 0) problems.push("amount must be a number greater than 0");
      if (body.reason !== undefined && typeof body.reason !== "string") problems.push("reason must be a string");
      if (typeof body.ref !== "string" || body.ref.trim() === "") problems.push("ref must be a non-empty string");
    }
    if (problems.length > 0) return fail(res, 400, "invalid_award", problems.join("; "));
    const { outcome, answer } = store.award(body);
    if (outcome === "repeat") return fail(res, 409, "duplicate_ref", `ref ${body.ref} was already applied.`);
    if (outcome === "conflict") return fail(res, 409, "ref_conflict", `ref ${body.ref} is already used by an award with other parameters.`);
    res.json({ data: answer });
  });
  app.use(PREFIX, api);

  app.use((req, res) => fail(res, 404, "not_found", `No route ${req.method} ${req.path}.`));
  // express.json's errors (bad JSON, too large) and anything thrown.
  app.use((error, _req, res, _next) => {
    const status = error.status ?? error.statusCode ?? 500;
    fail(res, status, error.type === "entity.parse.failed" ? "invalid_json" : status >= 500 ? "internal_error" : String(error.type ?? "bad_request").replace(/\W/g, "_"), status >= 500 ? "Internal error." : error.message);
  });

  const server = app.listen(port, host);
  await once(server, "listening");
  const origin = `http://${host}:${server.address().port}`;
  return {
    url: `${origin}${PREFIX}`,
    origin,
    store,
    stop: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

await runFromCommandLine(start, import.meta.url);
