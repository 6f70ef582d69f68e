// A Public Hub on Hono 4 (Node, @hono/node-server), written as a Hono user would: `hono/cors` as it
// comes, HTTPException for a key's or a signature's refusal (Hono answers its message as text/plain),
// @hono/zod-validator with its default hook, so a bad body gets its own
// `400 { success: false, error: { name: "ZodError", message: "<the issues as JSON>" } }`, a ledger
// with a unique index on `ref` whose violation is answered `c.text("Award with ref … already
// exists", 409)`, and a leaderboard paged `{ data, nextCursor }` (`?limit=&cursor=`) over 25 stakers
// (common.mjs's five, then test/e2e/framework-hubs/python/hubcommon.py's twenty more). The signature
// is checked with common.mjs's own node:crypto code, never the SDK's signer.
// `node test/e2e/framework-hubs/hono.mjs --port 0`, or `start({ port })` → `{ url, origin, stop }`.
// GET /__ledger (test only, outside the API) lists every applied award and every balance.
import { discovery, keyProblem, need, PREFIX, SEED, signatureProblem, SLUG, runFromCommandLine } from "./common.mjs";

const { Hono } = need("hono");
const { HTTPException } = need("hono/http-exception");
const { cors } = need("hono/cors");
const { serve } = need("@hono/node-server");
const { zValidator } = need("@hono/zod-validator");
const { z } = need("zod");

const STAKERS = [...SEED.stakers, ...Array.from({ length: 20 }, (_, i) => ({ wallet: `0x${"ab".repeat(19)}${String(i + 6).padStart(2, "0")}`, staked: 400 - (i + 1) * 15 }))];
const RANKED = STAKERS.toSorted((a, b) => b.staked - a.staked).map((staker, index) => ({ rank: index + 1, ...staker }));

const Award = z.object({
  wallet: z.string().regex(/^0x[0-9a-fA-F]{40}$/),
  amount: z.number().int().min(1).max(1_000_000),
  reason: z.string().max(200).optional(),
  ref: z.string().min(1).max(200),
});

/** The hub's store: balances, and the awards under a unique index on `ref`. */
function createLedger() {
  const balances = new Map(Object.entries(SEED.balances));
  const awards = new Map();
  return {
    balances,
    awards,
    /** Inserts an award; false when its `ref` is taken (the unique index). */
    insert(award) {
      if (awards.has(award.ref)) return false;
      awards.set(award.ref, { wallet: award.wallet, amount: award.amount, reason: award.reason ?? "", ref: award.ref });
      balances.set(award.wallet, (balances.get(award.wallet) ?? 0) + award.amount);
      return true;
    },
  };
}

export async function start({ port = 0, host = "127.0.0.1" } = {}) {
  const ledger = createLedger();
  const app = new Hono();
  app.use("*", cors());
  app.get("/__ledger", (c) => c.json({ awards: [...ledger.awards.values()], balances: Object.fromEntries(ledger.balances) }));

  const api = new Hono();
  const requireKey = async (c, next) => {
    const problem = keyProblem(c.req.header("x-api-key"), c.req.param("slug"));
    if (problem) throw new HTTPException(problem.status, { message: problem.message });
    await next();
  };
  const verifySignature = async (c, next) => {
    const problem = signatureProblem({
      clientId: c.req.header("x-api-key"),
      timestamp: c.req.header("x-api-timestamp"),
      signature: c.req.header("x-api-signature"),
      method: c.req.method,
      path: c.req.path,
      body: await c.req.text(),
    });
    if (problem) throw new HTTPException(401, { message: problem.message });
    await next();
  };

  api.get("/", (c) => c.json(discovery("hono")));
  api.get("/hub/:slug", requireKey, (c) => c.json({ slug: c.req.param("slug"), ...SEED.config }));
  api.get("/hub/:slug/leaderboard", requireKey, (c) => {
    const limit = Math.min(Math.max(Number.parseInt(c.req.query("limit") ?? "10", 10) || 10, 1), 100);
    const cursor = c.req.query("cursor");
    const from = cursor ? Number(Buffer.from(cursor, "base64url").toString()) : 0;
    const data = RANKED.slice(from, from + limit);
    const next = from + limit < RANKED.length ? Buffer.from(String(from + limit)).toString("base64url") : null;
    return c.json({ data, nextCursor: next });
  });
  api.get("/hub/:slug/holder/:wallet", requireKey, (c) => {
    const wallet = c.req.param("wallet");
    const tokens = SEED.holders[wallet];
    return c.json({ hub: c.req.param("slug"), wallet, holder: tokens !== undefined, tokens: tokens ?? 0, bits: ledger.balances.get(wallet) ?? 0 });
  });
  api.get("/hub/:slug/stake-status", requireKey, zValidator("query", z.object({ wallet: z.string().min(1) })), (c) => {
    const { wallet } = c.req.valid("query");
    const row = RANKED.find((entry) => entry.wallet === wallet);
    return c.json({ hub: c.req.param("slug"), wallet, staking: row !== undefined, staked: row?.staked ?? 0, rank: row?.rank ?? null });
  });
  api.post("/hub/:slug/bits/earn", requireKey, verifySignature, zValidator("json", Award), (c) => {
    const award = c.req.valid("json");
    if (!ledger.insert(award)) return c.text(`Award with ref ${award.ref} already exists`, 409);
    return c.json({ ref: award.ref, wallet: award.wallet, amount: award.amount, balance: ledger.balances.get(award.wallet) }, 201);
  });
  app.route(PREFIX, api);

  const server = serve({ fetch: app.fetch, port, hostname: host });
  await new Promise((resolve, reject) => (server.once("listening", resolve), server.once("error", reject)));
  const origin = `http://${host}:${server.address().port}`;
  return {
    url: `${origin}${PREFIX}`,
    origin,
    ledger,
    stop: () => new Promise((resolve) => (server.closeAllConnections?.(), server.close(() => resolve()))),
  };
}

await runFromCommandLine(start, import.meta.url);
