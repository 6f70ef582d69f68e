// What the three test hubs (express.mjs, fastify.mjs, nestjs.mjs) share: the seed (hub `alpha`,
// key `pk_alpha_e2e` and its secret, stakers, holders), the write signature checked with
// node:crypto from the spec (part 5) — the hubs' own code, not the SDK's signer — and the award
// ledger with its `ref` rules. Each hub answers these in its framework's own dialect.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("../../..", import.meta.url));
/** The frameworks, as test/e2e/framework-hubs/install.sh installed them. */
export const need = createRequire(`${repo}.tmp/framework-hubs/package.json`);

export const SLUG = "alpha";
export const CLIENT_ID = "pk_alpha_e2e";
export const SECRET = "sk_alpha_e2e_0123456789abcdef";
export const PREFIX = "/api/v1";
const TOLERANCE_S = 300;

/** The hub's data; the round trip seeds `public-hub mock` with the same (see mockSeed). */
export const SEED = {
  config: { name: "Alpha Hub", description: "A framework test hub.", token: { symbol: "ALP", decimals: 18 } },
  stakers: [
    { wallet: "0x1111111111111111111111111111111111111111", staked: 52_000 },
    { wallet: "0x2222222222222222222222222222222222222222", staked: 31_500 },
    { wallet: "0x3333333333333333333333333333333333333333", staked: 12_250 },
    { wallet: "0x4444444444444444444444444444444444444444", staked: 9_000 },
    { wallet: "0x5555555555555555555555555555555555555555", staked: 400 },
  ],
  holders: { "0x1111111111111111111111111111111111111111": 120, "0x2222222222222222222222222222222222222222": 45 },
  balances: { "0x1111111111111111111111111111111111111111": 250 },
};

/** Another hub, which the key may not read (403). */
export const OTHER_SLUG = "beta";
const OTHER = { config: { name: "Beta Hub" }, stakers: [{ wallet: "0x9999999999999999999999999999999999999999", staked: 1_000 }] };

/** The same hubs and key as `public-hub mock --seed FILE` takes them. */
export const mockSeed = () => ({ hubs: { [SLUG]: structuredClone(SEED), [OTHER_SLUG]: structuredClone(OTHER) }, keys: { [CLIENT_ID]: { secret: SECRET, hub: SLUG } } });

/** The server keeps sha256(secret) in hex, never the secret (spec part 2). */
const KEYS = new Map([[CLIENT_ID, { hub: SLUG, storedKey: createHash("sha256").update(SECRET, "utf8").digest("hex") }]]);

/** Why a request's key cannot read `slug`: 401 (no key, unknown key), 404 (no such hub), 403 (another hub's key); undefined when it can. */
export function keyProblem(clientId, slug) {
  if (!clientId) return { status: 401, code: "missing_api_key", message: "The x-api-key header is required." };
  const key = KEYS.get(clientId);
  if (!key) return { status: 401, code: "invalid_api_key", message: "Unknown API key." };
  if (slug !== SLUG && slug !== OTHER_SLUG) return { status: 404, code: "hub_not_found", message: `No hub "${slug}".` };
  if (key.hub !== slug) return { status: 403, code: "forbidden", message: "This API key is scoped to another hub." };
  return undefined;
}

/**
 * Why a signed write's signature fails (spec part 5), or undefined when it is good:
 * HMAC-SHA256, key = hex sha256(secret) as a string, over `timestamp.METHOD.path.body`, the
 * timestamp within ±300 s.
 */
export function signatureProblem({ clientId, timestamp, signature, method, path, body }) {
  const key = KEYS.get(clientId);
  if (!key) return { code: "invalid_api_key", message: "Unknown API key." };
  if (!timestamp || !/^\d+$/.test(timestamp)) return { code: "invalid_timestamp", message: "x-api-timestamp must be Unix seconds." };
  if (Math.abs(Math.floor(Date.now() / 1000) - Number(timestamp)) > TOLERANCE_S) return { code: "timestamp_out_of_window", message: "x-api-timestamp is not within 300 s of server time." };
  if (!signature || !/^[0-9a-f]{64}$/.test(signature)) return { code: "invalid_signature", message: "x-api-signature must be 64 lowercase hex digits." };
  const expected = createHmac("sha256", key.storedKey).update(`${timestamp}.${method.toUpperCase()}.${path}.${body}`, "utf8").digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, "hex"))) return { code: "invalid_signature", message: "The signature does not match." };
  return undefined;
}

/** The rows of the leaderboard, largest stake first. */
export const ranked = () => [...SEED.stakers].sort((a, b) => b.staked - a.staked).map((staker, index) => ({ rank: index + 1, wallet: staker.wallet, staked: staker.staked }));

/** `limit` as a hub reads it: a positive integer, clamped to 100; else 10. */
export const limitOf = (value) => (typeof value === "string" && /^[1-9]\d*$/.test(value) ? Math.min(Number(value), 100) : 10);

/**
 * The hub's balances and its ledger of applied awards. `award` applies an award once per `ref`:
 * `fresh` (applied now), `repeat` (the same parameters again: nothing applied) or `conflict`
 * (the ref went with other parameters: nothing applied).
 */
export function createStore() {
  const balances = new Map(Object.entries(SEED.balances));
  const ledger = [];
  const byRef = new Map();
  return {
    ledger,
    balanceOf: (wallet) => balances.get(wallet) ?? 0,
    holder(wallet) {
      const tokens = SEED.holders[wallet];
      return { wallet, holder: tokens !== undefined, tokens: tokens ?? 0, bits: balances.get(wallet) ?? 0 };
    },
    stake(wallet) {
      const row = ranked().find((entry) => entry.wallet === wallet);
      return { wallet, staking: row !== undefined, staked: row?.staked ?? 0, rank: row?.rank ?? null };
    },
    award({ wallet, amount, reason, ref }) {
      const earlier = byRef.get(ref);
      if (earlier) {
        const same = earlier.record.wallet === wallet && earlier.record.amount === amount && earlier.record.reason === (reason ?? null);
        return { outcome: same ? "repeat" : "conflict", ...earlier };
      }
      const record = { hub: SLUG, wallet, amount, reason: reason ?? null, ref, at: new Date().toISOString() };
      ledger.push(record);
      balances.set(wallet, (balances.get(wallet) ?? 0) + amount);
      const answer = { ref, wallet, amount, balance: balances.get(wallet) };
      byRef.set(ref, { record, answer });
      return { outcome: "fresh", record, answer };
    },
  };
}

/** The discovery document (spec part 4, endpoint 0). */
export const discovery = (framework) => ({
  name: "Alpha test hub",
  version: "v1",
  framework,
  endpoints: [
    { method: "GET", path: "/hub/{slug}", auth: "key" },
    { method: "GET", path: "/hub/{slug}/leaderboard", auth: "key", query: ["limit"] },
    { method: "GET", path: "/hub/{slug}/holder/{wallet}", auth: "key" },
    { method: "GET", path: "/hub/{slug}/stake-status", auth: "key", query: ["wallet"] },
    { method: "POST", path: "/hub/{slug}/bits/earn", auth: "key+signature" },
  ],
});

/** `node <hub>.mjs --port N`: serves until SIGINT or SIGTERM, printing its base URL. */
export async function runFromCommandLine(start, metaUrl) {
  if (process.argv[1] !== fileURLToPath(metaUrl)) return;
  const at = process.argv.indexOf("--port");
  const port = at === -1 ? 0 : Number(process.argv[at + 1]);
  const hub = await start({ port });
  console.log(`listening on ${hub.url} (key ${CLIENT_ID}, hub ${SLUG}; GET ${hub.origin}/__ledger)`);
  const stop = () => hub.stop().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
