// A Public Hub on NestJS 11 (platform-express), written as a Nest user would, in plain JS: the
// decorators are Nest's own (@Controller, @Get, @Post, @HttpCode, @UseGuards, @Param, @Query,
// @Body, class-validator's), applied with Reflect.decorate instead of TypeScript's `@` syntax, and
// `design:paramtypes` given by hand where TypeScript would emit it (the DTOs ValidationPipe reads).
// Its dialect: Nest's default exception bodies (`{ message, error, statusCode }`), a global
// ValidationPipe (400 with `message` a list), guards for the key and the signature (guards run
// before pipes: the signature is checked before the body), `rawBody: true` for the signature, an
// award answered 200 (@HttpCode) and a repeat answered exactly alike (same status, same body: a
// repeat is indistinguishable), a `ref` sent again with other parameters a ConflictException, a
// Relay leaderboard (`edges[].node`, `pageInfo`, `?after=`) and an `x-correlation-id` header.
// `node test/e2e/framework-hubs/nestjs.mjs --port 0`, or `start({ port })` → `{ url, origin, stop }`.
// GET /__ledger (test only, outside the API) lists the applied awards.
import { randomUUID } from "node:crypto";
import { createStore, discovery, keyProblem, limitOf, need, PREFIX, ranked, runFromCommandLine, SEED, signatureProblem } from "./common.mjs";

need("reflect-metadata");
const { NestFactory } = need("@nestjs/core");
const common = need("@nestjs/common");
const validator = need("class-validator");

const EXCEPTIONS = { 401: common.UnauthorizedException, 403: common.ForbiddenException, 404: common.NotFoundException };

/** A method's decorators, and its parameters' (index → decorator), applied as TypeScript would. */
function method(Class, name, decorators, params = [], paramTypes = undefined) {
  const proto = Class.prototype;
  params.forEach((decorator, index) => decorator?.(proto, name, index));
  const all = paramTypes ? [...decorators, Reflect.metadata("design:paramtypes", paramTypes)] : decorators;
  Reflect.decorate(all, proto, name, Object.getOwnPropertyDescriptor(proto, name));
}
const property = (Class, name, decorators) => Reflect.decorate(decorators, Class.prototype, name);

// The DTOs ValidationPipe checks.
class AwardDto {}
property(AwardDto, "wallet", [validator.IsString(), validator.IsNotEmpty()]);
property(AwardDto, "amount", [validator.IsNumber(), validator.IsPositive()]);
property(AwardDto, "reason", [validator.IsOptional(), validator.IsString()]);
property(AwardDto, "ref", [validator.IsString(), validator.IsNotEmpty()]);
class StakeStatusQuery {}
property(StakeStatusQuery, "wallet", [validator.IsString(), validator.IsNotEmpty()]);

const cursorOf = (offset) => Buffer.from(`arrayconnection:${offset}`).toString("base64");
const offsetAfter = (cursor) => {
  if (cursor === undefined) return 0;
  const match = /^arrayconnection:(\d+)$/.exec(Buffer.from(String(cursor), "base64").toString("utf8"));
  if (!match) throw new common.BadRequestException("after is not a cursor this hub gave");
  return Number(match[1]) + 1;
};

export async function start({ port = 0, host = "127.0.0.1" } = {}) {
  const store = createStore();

  class ApiKeyGuard {
    canActivate(context) {
      const request = context.switchToHttp().getRequest();
      const problem = keyProblem(request.headers["x-api-key"], request.params.slug);
      if (problem) throw new EXCEPTIONS[problem.status](problem.message);
      return true;
    }
  }
  class SignatureGuard {
    canActivate(context) {
      const request = context.switchToHttp().getRequest();
      const problem = signatureProblem({
        clientId: request.headers["x-api-key"],
        timestamp: request.headers["x-api-timestamp"],
        signature: request.headers["x-api-signature"],
        method: request.method,
        path: request.originalUrl.split("?")[0],
        body: request.rawBody?.toString("utf8") ?? "",
      });
      if (problem) throw new common.UnauthorizedException(problem.message);
      return true;
    }
  }

  class DiscoveryController {
    discover() {
      return discovery("nestjs");
    }
  }
  method(DiscoveryController, "discover", [common.Get()]);
  Reflect.decorate([common.Controller()], DiscoveryController);

  class HubController {
    getHub(slug) {
      return { slug, ...SEED.config };
    }
    leaderboard(limit, first, after) {
      const rows = ranked();
      const offset = offsetAfter(after);
      const page = rows.slice(offset, offset + limitOf(limit ?? first));
      const edges = page.map((node, index) => ({ cursor: cursorOf(offset + index), node }));
      return {
        edges,
        pageInfo: {
          hasNextPage: offset + page.length < rows.length,
          hasPreviousPage: offset > 0,
          startCursor: edges[0]?.cursor ?? null,
          endCursor: edges.at(-1)?.cursor ?? null,
        },
        totalCount: rows.length,
      };
    }
    holder(slug, wallet) {
      return { hub: slug, ...store.holder(wallet) };
    }
    stakeStatus(slug, query) {
      return { hub: slug, ...store.stake(query.wallet) };
    }
    earn(slug, award) {
      const { outcome, answer } = store.award(award);
      if (outcome === "conflict") throw new common.ConflictException(`ref ${award.ref} is already used by an award with other parameters`);
      // A repeat is answered as the award was: the same status, the same body.
      return { hub: slug, ...answer };
    }
  }
  const guarded = common.UseGuards(new ApiKeyGuard());
  method(HubController, "getHub", [common.Get(":slug"), guarded], [common.Param("slug")], [String]);
  method(HubController, "leaderboard", [common.Get(":slug/leaderboard"), guarded], [common.Query("limit"), common.Query("first"), common.Query("after")], [String, String, String]);
  method(HubController, "holder", [common.Get(":slug/holder/:wallet"), guarded], [common.Param("slug"), common.Param("wallet")], [String, String]);
  method(HubController, "stakeStatus", [common.Get(":slug/stake-status"), guarded], [common.Param("slug"), common.Query()], [String, StakeStatusQuery]);
  method(HubController, "earn", [common.Post(":slug/bits/earn"), common.HttpCode(200), common.UseGuards(new ApiKeyGuard(), new SignatureGuard())], [common.Param("slug"), common.Body()], [String, AwardDto]);
  Reflect.decorate([common.Controller("hub")], HubController);

  class AppModule {}
  Reflect.decorate([common.Module({ controllers: [DiscoveryController, HubController] })], AppModule);

  const app = await NestFactory.create(AppModule, { logger: false, rawBody: true });
  app.enableCors();
  app.use((request, response, next) => {
    response.setHeader("x-correlation-id", request.headers["x-correlation-id"] ?? randomUUID());
    next();
  });
  app.use("/__ledger", (_request, response) => response.json(store.ledger));
  app.setGlobalPrefix(PREFIX.slice(1));
  app.useGlobalPipes(new common.ValidationPipe());
  await app.listen(port, host);
  const origin = `http://${host}:${app.getHttpServer().address().port}`;
  return { url: `${origin}${PREFIX}`, origin, store, stop: () => app.close() };
}

await runFromCommandLine(start, import.meta.url);
