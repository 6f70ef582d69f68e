// Records the default answers of popular server frameworks (their errors, rate-limit headers, pages
// and 404s) into test/fixtures/framework-answers.json, which test/core/answer/framework-corpus.test.ts
// reads: what a hub built on them sends, as sent (status, headers, body text). Run:
// `node scripts/record-framework-answers.mjs`. Every answer comes from the real framework on loopback;
// none is written by hand. Two sets:
// - bare apps of each npm framework (pinned below, installed into .tmp/framework-answers): express,
//   Fastify, Hono, NestJS;
// - the test hubs of test/e2e/framework-hubs, each a whole hub with a unique index on `ref`, written
//   with its framework's defaults: Django REST framework, FastAPI and Flask + Flask-Limiter (Debian's
//   packages, installed by install-python.sh into /usr/bin/python3) and Hono + @hono/zod-validator
//   (install.sh). Each answers one script: an award, the ref reused with the same award and with
//   another amount, a bad wallet, a fractional amount, a bad signature, an unknown key, the award
//   limit's 429 where the hub has one, two pages of the leaderboard, an unknown path.
// Each server is closed (the Python ones by their pid) before the next starts.
import { createHash, createHmac } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const dir = `${repo}.tmp/framework-answers`;
const VERSIONS = {
  express: "5.3.0",
  "express-rate-limit": "7.5.1",
  fastify: "5.12.8",
  "@fastify/rate-limit": "11.2.0",
  hono: "4.13.19",
  "@hono/node-server": "2.1.9",
  "@nestjs/core": "11.2.10",
  "@nestjs/common": "11.2.10",
  "@nestjs/platform-express": "11.2.10",
  "reflect-metadata": "0.2.2",
  rxjs: "7.8.2",
  "class-validator": "0.15.1",
  "class-transformer": "0.5.1",
};
if (!existsSync(`${dir}/node_modules/express`)) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${dir}/package.json`, "{}");
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", dir, ...Object.entries(VERSIONS).map(([name, version]) => `${name}@${version}`)], { stdio: "inherit" });
}
const need = createRequire(`${dir}/package.json`);
const version = (name) => JSON.parse(readFileSync(`${dir}/node_modules/${name}/package.json`, "utf8")).version;

const answers = [];
/** Sends `requests` to a server listening on `port`, keeping each answer as `names[i]` (null: not kept). */
async function record(framework, port, requests) {
  for (const [name, path, init] of requests) {
    const response = await fetch(`http://127.0.0.1:${port}${path}`, init);
    const body = await response.text();
    if (name) answers.push({ framework, name, status: response.status, headers: Object.fromEntries(response.headers), body });
  }
}
const close = (server) => new Promise((resolve) => (server.closeAllConnections?.(), server.close(resolve)));
const post = (body) => ({ method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const hubPath = "/api/v1/hub/alpha";

// express 5 with express-rate-limit, in each header mode: a limit of 2 in a minute, then a 429.
{
  const express = need("express");
  const { rateLimit } = need("express-rate-limit");
  for (const mode of ["draft-6", "draft-7", "draft-8", "legacy"]) {
    const app = express();
    app.use(rateLimit({ windowMs: 60_000, limit: 2, ...(mode === "legacy" ? { standardHeaders: false, legacyHeaders: true } : { standardHeaders: mode, legacyHeaders: false }) }));
    app.get(hubPath, (_req, res) => res.json({ slug: "alpha" }));
    const server = app.listen(0, "127.0.0.1");
    await once(server, "listening");
    await record(`express-rate-limit@${version("express-rate-limit")} ${mode}`, server.address().port, [["read, one left", hubPath], [null, hubPath], ["over the limit", hubPath]]);
    await close(server);
  }
}

// Fastify 5: its schema validation error, @fastify/rate-limit's headers and 429, its 404.
{
  const Fastify = need("fastify");
  const app = Fastify();
  await app.register(need("@fastify/rate-limit"), { max: 2, timeWindow: 60_000 });
  app.post(`${hubPath}/bits/earn`, { schema: { body: { type: "object", required: ["wallet", "amount"], properties: { wallet: { type: "string" }, amount: { type: "number", exclusiveMinimum: 0 } } } } }, async () => ({ ok: true }));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const { port } = app.server.address();
  await record(`fastify@${version("fastify")} @fastify/rate-limit@${version("@fastify/rate-limit")}`, port, [
    ["validation error", `${hubPath}/bits/earn`, post({ amount: 5 })],
    ["no such route", "/api/v1/nope"],
    [null, `${hubPath}/bits/earn`, post({ amount: 5 })],
    ["over the limit", `${hubPath}/bits/earn`, post({ amount: 5 })],
  ]);
  await app.close();
}

// Hono on Node: its 404 and an HTTPException with a message.
{
  // Hono and its Node server are ES modules: imported from a file in the install directory.
  writeFileSync(`${dir}/hono.mjs`, 'export { Hono } from "hono";\nexport { HTTPException } from "hono/http-exception";\nexport { serve } from "@hono/node-server";\n');
  const { Hono, HTTPException, serve } = await import(`${dir}/hono.mjs`);
  const app = new Hono();
  app.post(`${hubPath}/bits/earn`, () => {
    throw new HTTPException(409, { message: "ref already used" });
  });
  const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((resolve) => server.once("listening", resolve));
  await record(`hono@${version("hono")}`, server.address().port, [
    ["no such route", "/api/v1/nope"],
    ["HTTPException 409", `${hubPath}/bits/earn`, post({})],
  ]);
  await close(server);
}

// NestJS 11 (decorators applied by hand: no TypeScript here): ValidationPipe's 400, a
// ConflictException, the default 404.
{
  need("reflect-metadata");
  const { NestFactory } = need("@nestjs/core");
  const common = need("@nestjs/common");
  const validator = need("class-validator");
  class Award {}
  Reflect.decorate([validator.IsString(), validator.IsNotEmpty()], Award.prototype, "wallet");
  Reflect.decorate([validator.IsNumber(), validator.IsPositive()], Award.prototype, "amount");
  class HubController {
    earn(body) {
      if (body.ref === "used") throw new common.ConflictException("ref already used");
      return { ok: true };
    }
  }
  Reflect.decorate([common.Post("bits/earn"), Reflect.metadata("design:paramtypes", [Award])], HubController.prototype, "earn", Object.getOwnPropertyDescriptor(HubController.prototype, "earn"));
  common.Body()(HubController.prototype, "earn", 0);
  const Controller = Reflect.decorate([common.Controller("api/v1/hub/alpha")], HubController);
  class AppModule {}
  Reflect.decorate([common.Module({ controllers: [Controller] })], AppModule);
  const app = await NestFactory.create(AppModule, { logger: false });
  app.useGlobalPipes(new common.ValidationPipe());
  await app.listen(0, "127.0.0.1");
  const { port } = app.getHttpServer().address();
  await record(`@nestjs/core@${version("@nestjs/core")} class-validator@${version("class-validator")}`, port, [
    ["ValidationPipe 400", `${hubPath}/bits/earn`, post({ amount: -1 })],
    ["ConflictException 409", `${hubPath}/bits/earn`, post({ wallet: "0xa", amount: 1, ref: "used" })],
    ["no such route", "/api/v1/nope"],
  ]);
  await app.close();
}

// The test hubs, each with a unique index on `ref`: one script each, signed with node:crypto from the
// spec (part 5), never the SDK's signer.
execFileSync("bash", [`${repo}test/e2e/framework-hubs/install.sh`], { stdio: "inherit" });
execFileSync("bash", [`${repo}test/e2e/framework-hubs/install-python.sh`], { stdio: "inherit" });
{
  const SECRET = "sk_alpha_e2e_0123456789abcdef";
  const signingKey = createHash("sha256").update(SECRET).digest("hex");
  const earnPath = `${hubPath}/bits/earn`;
  /** A signed award, as a server sends it; `clientId` and `signature` can be spoiled. */
  const signed = (award, { clientId = "pk_alpha_e2e", signature } = {}) => {
    const body = JSON.stringify(award);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const good = createHmac("sha256", signingKey).update(`${timestamp}.POST.${earnPath}.${body}`).digest("hex");
    return { method: "POST", headers: { "content-type": "application/json", "x-api-key": clientId, "x-api-timestamp": timestamp, "x-api-signature": signature ?? good }, body };
  };
  const read = { headers: { "x-api-key": "pk_alpha_e2e" } };
  const award = { wallet: "0x00000000000000000000000000000000000000a1", amount: 10, reason: "quest", ref: "rec-1" };
  const keep = (framework, name, response, body) => answers.push({ framework, name, status: response.status, headers: Object.fromEntries(response.headers), body });
  /** The one script, against a hub at `origin`; `nextPage(first page's response and body)` → the next page's path. */
  async function script(framework, origin, { nextPage, throttled }) {
    const send = async (name, path, init) => {
      const response = await fetch(`${origin}${path}`, init);
      const body = await response.text();
      keep(framework, name, response, body);
      return { response, body };
    };
    await send("award applied", earnPath, signed(award));
    await send("ref reused, same award", earnPath, signed(award));
    await send("ref reused, other amount", earnPath, signed({ ...award, amount: 11 }));
    await send("field error (bad wallet)", earnPath, signed({ ...award, wallet: "0xnot-a-wallet", ref: "rec-2" }));
    await send("fractional amount", earnPath, signed({ ...award, amount: 7.5, ref: "rec-3" }));
    await send("bad signature", earnPath, signed({ ...award, ref: "rec-4" }, { signature: "0".repeat(64) }));
    await send("unknown key", earnPath, signed({ ...award, ref: "rec-5" }, { clientId: "pk_unknown" }));
    const first = await send("leaderboard page", `${hubPath}/leaderboard?limit=2`, read);
    await send("leaderboard next page", nextPage(first.response, JSON.parse(first.body)), read);
    await send("unknown path", "/api/v1/nope", read);
    if (throttled) {
      // Fresh awards until the hub's award limit refuses one: that 429 is kept.
      for (let n = 0; n < 30; n++) {
        const response = await fetch(`${origin}${earnPath}`, signed({ ...award, ref: `rec-limit-${n}` }));
        const body = await response.text();
        if (response.status === 429) {
          keep(framework, "throttled award", response, body);
          break;
        }
      }
    }
  }
  const { startPythonHub, pythonVersions } = await import(pathToFileURL(`${repo}test/e2e/framework-hubs/python/start.mjs`).href);
  const py = pythonVersions();
  const hubs = [
    ["drf", `djangorestframework@${py.djangorestframework} django@${py.Django} gunicorn@${py.gunicorn}`, { nextPage: (_response, page) => new URL(page.next).pathname + new URL(page.next).search, throttled: true }],
    ["fastapi", `fastapi@${py.fastapi} pydantic@${py.pydantic} uvicorn@${py.uvicorn}`, { nextPage: () => `${hubPath}/leaderboard?limit=2&offset=2`, throttled: false }],
    ["flask", `flask@${py.Flask} flask-limiter@${py["Flask-Limiter"]} werkzeug@${py.Werkzeug} gunicorn@${py.gunicorn}`, { nextPage: () => `${hubPath}/leaderboard?limit=2&page=2`, throttled: true }],
  ];
  for (const [name, framework, options] of hubs) {
    // A limit the script's awards stay under, so that only the last loop meets it.
    const hub = await startPythonHub(name, { env: { HUB_AWARD_RATE: "10/minute", HUB_PAGE_SIZE: "10" } });
    try {
      await script(framework, hub.origin, options);
    } catch (error) {
      console.error(hub.output());
      throw error;
    } finally {
      await hub.stop();
    }
  }
  const hubVersion = (name) => JSON.parse(readFileSync(`${repo}.tmp/framework-hubs/node_modules/${name}/package.json`, "utf8")).version;
  const { start } = await import(pathToFileURL(`${repo}test/e2e/framework-hubs/hono.mjs`).href);
  const hono = await start({ port: 0 });
  try {
    await script(`hono@${hubVersion("hono")} @hono/zod-validator@${hubVersion("@hono/zod-validator")} zod@${hubVersion("zod")}`, hono.origin, {
      nextPage: (_response, page) => `${hubPath}/leaderboard?limit=2&cursor=${encodeURIComponent(page.nextCursor)}`,
      throttled: false,
    });
  } finally {
    await hono.stop();
  }
}

const out = fileURLToPath(new URL("../test/fixtures/framework-answers.json", import.meta.url));
writeFileSync(out, `${JSON.stringify({ recordedBy: "scripts/record-framework-answers.mjs", recordedAt: new Date().toISOString(), answers }, null, 2)}\n`);
console.log(`${answers.length} answers written to test/fixtures/framework-answers.json`);
