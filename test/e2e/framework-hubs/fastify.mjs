// A Public Hub on Fastify 5, written as a Fastify user would: routes in a plugin under the
// /api/v1 prefix, JSON-schema validation of the award body and the query (its default
// FST_ERR_VALIDATION 400, checked before the route's preHandler hooks, so before the signature),
// errors thrown with `statusCode` and `code` and sent by Fastify's default error serializer
// (`{ statusCode, code, error, message }`), @fastify/rate-limit's `x-ratelimit-*` headers, an
// award answered 201, a repeat answered 200 with `status: "already_processed"`, a `ref` sent
// again with other parameters refused 409 `REF_ALREADY_USED`, and a cursor-paged leaderboard
// (`{ items, next_cursor }`, `?cursor=`). No request id header (Fastify sends none by default).
// The raw body for the signature comes from a JSON content-type parser that keeps the string.
// `node test/e2e/framework-hubs/fastify.mjs --port 0`, or `start({ port })` → `{ url, origin, stop }`.
// GET /__ledger (test only, outside the API) lists the applied awards.
import { createStore, discovery, keyProblem, need, PREFIX, ranked, runFromCommandLine, SEED, signatureProblem } from "./common.mjs";

const Fastify = need("fastify");
const rateLimit = need("@fastify/rate-limit");

/** An error Fastify's default handler serializes as `{ statusCode, code, error, message }`. */
const httpError = (statusCode, code, message) => Object.assign(new Error(message), { statusCode, code });

const CODES = { missing_api_key: "HUB_MISSING_API_KEY", invalid_api_key: "HUB_INVALID_API_KEY", hub_not_found: "HUB_NOT_FOUND", forbidden: "HUB_FORBIDDEN" };

const cursorOf = (offset) => Buffer.from(JSON.stringify({ offset })).toString("base64url");
const offsetOf = (cursor) => {
  if (cursor === undefined) return 0;
  try {
    const { offset } = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // fall through
  }
  throw httpError(400, "HUB_INVALID_CURSOR", "cursor is not one this hub gave.");
};

async function api(app) {
  async function authenticate(request) {
    const problem = keyProblem(request.headers["x-api-key"], request.params.slug);
    if (problem) throw httpError(problem.status, CODES[problem.code], problem.message);
  }
  async function verifySignature(request) {
    const problem = signatureProblem({
      clientId: request.headers["x-api-key"],
      timestamp: request.headers["x-api-timestamp"],
      signature: request.headers["x-api-signature"],
      method: request.method,
      path: request.raw.url.split("?")[0],
      body: request.rawBody ?? "",
    });
    if (problem) throw httpError(401, `HUB_${problem.code.toUpperCase()}`, problem.message);
  }

  app.get("/", async () => discovery("fastify"));
  app.get("/hub/:slug", { onRequest: authenticate }, async (request) => ({ slug: request.params.slug, ...SEED.config }));
  app.get(
    "/hub/:slug/leaderboard",
    {
      onRequest: authenticate,
      schema: { querystring: { type: "object", properties: { limit: { type: "integer", minimum: 1, maximum: 100, default: 10 }, cursor: { type: "string" } } } },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const rows = ranked();
      const offset = offsetOf(cursor);
      const end = offset + limit;
      return { items: rows.slice(offset, end), next_cursor: end < rows.length ? cursorOf(end) : null };
    },
  );
  app.get("/hub/:slug/holder/:wallet", { onRequest: authenticate }, async (request) => ({ hub: request.params.slug, ...request.store.holder(request.params.wallet) }));
  app.get(
    "/hub/:slug/stake-status",
    { onRequest: authenticate, schema: { querystring: { type: "object", required: ["wallet"], properties: { wallet: { type: "string", minLength: 1 } } } } },
    async (request) => ({ hub: request.params.slug, ...request.store.stake(request.query.wallet) }),
  );
  app.post(
    "/hub/:slug/bits/earn",
    {
      onRequest: authenticate,
      preHandler: verifySignature,
      schema: {
        body: {
          type: "object",
          required: ["wallet", "amount", "ref"],
          properties: { wallet: { type: "string", minLength: 1 }, amount: { type: "number", exclusiveMinimum: 0 }, reason: { type: "string" }, ref: { type: "string", minLength: 1 } },
        },
      },
    },
    async (request, reply) => {
      const { outcome, answer } = request.store.award(request.body);
      if (outcome === "conflict") throw httpError(409, "REF_ALREADY_USED", `ref ${request.body.ref} is already used by an award with other parameters.`);
      if (outcome === "repeat") return reply.code(200).send({ ...answer, status: "already_processed" });
      return reply.code(201).send({ ...answer, status: "credited" });
    },
  );
}

export async function start({ port = 0, host = "127.0.0.1" } = {}) {
  const store = createStore();
  const app = Fastify({ logger: false });
  app.decorateRequest("store", null);
  app.addHook("onRequest", async (request, reply) => {
    request.store = store;
    reply.header("access-control-allow-origin", "*");
  });
  // The exact body string, kept for the signature: JSON parsed from it.
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    request.rawBody = body;
    if (body === "") return done(null, undefined);
    try {
      done(null, JSON.parse(body));
    } catch (error) {
      done(Object.assign(error, { statusCode: 400, code: "FST_ERR_CTP_INVALID_JSON" }), undefined);
    }
  });
  await app.register(rateLimit, { max: 600, timeWindow: 60_000 });
  app.get("/__ledger", { config: { rateLimit: false } }, async () => store.ledger);
  await app.register(api, { prefix: PREFIX });
  await app.listen({ port, host });
  const origin = `http://${host}:${app.server.address().port}`;
  return { url: `${origin}${PREFIX}`, origin, store, stop: () => app.close() };
}

await runFromCommandLine(start, import.meta.url);
