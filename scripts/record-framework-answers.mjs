// Records the default answers of popular server frameworks (their errors, rate-limit headers and
// 404s) into test/fixtures/framework-answers.json, which test/core/answer/framework-corpus.test.ts
// reads: what a hub built on them sends, as sent. Run: `node scripts/record-framework-answers.mjs`.
// It installs the frameworks (npm, pinned below) into .tmp/framework-answers and serves each on
// loopback; each server is closed before the next starts. Python's (FastAPI, slowapi, DRF) need
// PyPI, which this project's machines do not reach: their answers stay hand-written in
// framework-answers.test.ts, from their documentation.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { once } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

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

const out = fileURLToPath(new URL("../test/fixtures/framework-answers.json", import.meta.url));
writeFileSync(out, `${JSON.stringify({ recordedBy: "scripts/record-framework-answers.mjs", recordedAt: new Date().toISOString(), answers }, null, 2)}\n`);
console.log(`${answers.length} answers written to test/fixtures/framework-answers.json`);
