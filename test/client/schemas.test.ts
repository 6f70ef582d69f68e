import { http, HttpResponse } from "msw";
import * as v from "valibot";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { HubClient, HubError, HubResponseError, HubSchemaError, HubValidationError, type HubClientOptions, type HubSchemas, type Logger } from "public-hub-sdk";
import { VALIDATE_MODES } from "../../src/core/types/schemas";
import { useHubMock } from "../helpers/mock-server";

const { mock, server } = useHubMock();
const WALLET = "0xabc"; // no tokens, no points, no stake in the demo data
const HOLDER_URL = `${mock.baseUrl}/hub/alpha/holder/:wallet`;

// The mock's holder answer is { hub, wallet, holder, tokens, bits }.
const holder = z.object({ wallet: z.string(), bits: z.number(), tokens: z.number() });
const logger = (): Logger & { lines: string[] } => {
  const lines: string[] = [];
  const write = (line: string) => void lines.push(line);
  return { lines, debug: write, info: write, warn: write, error: write };
};
const options = { baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", retry: { backoff: 1 }, logLevel: "off" } as const;
const clientWith = <S extends HubSchemas>(schemas: S, more: Partial<HubClientOptions> = {}) => new HubClient({ ...options, ...more, schemas });
const answerHolder = (body: unknown) => server.use(http.get(HOLDER_URL, () => HttpResponse.json(body as never)));
const failure = (promise: Promise<unknown>) => promise.then(() => expect.fail("expected a rejection"), (error: unknown) => error);

describe("schemas given once to the client", () => {
  it("a read returns its schema's output (zod strips the fields it does not declare)", async () => {
    const hub = clientWith({ holder });
    expect(await hub.getHolder(WALLET)).toEqual({ wallet: WALLET, bits: 0, tokens: 0 });
    const { data, requestId } = await hub.getHolder(WALLET).withResponse();
    expect(data).toEqual({ wallet: WALLET, bits: 0, tokens: 0 });
    expect(requestId).toMatch(/^req_mock_/);
  });

  it("an operation without a schema is returned as sent", async () => {
    const hub = clientWith({ holder });
    expect(await hub.getStakeStatus(WALLET)).toEqual({ hub: "alpha", wallet: WALLET, staking: false, staked: 0, rank: null });
  });

  it("works with valibot, and with a schema whose validate is asynchronous", async () => {
    const hub = clientWith({ holder: v.object({ bits: v.number() }), stakeStatus: z.object({ staked: z.number() }).refine(async () => true) });
    expect(await hub.getHolder(WALLET)).toEqual({ bits: 0 });
    expect(await hub.getStakeStatus(WALLET)).toEqual({ staked: 0 });
  });

  it("a call's own schema overrides the client's for that call", async () => {
    const hub = clientWith({ holder });
    expect(await hub.getHolder(WALLET, { schema: z.object({ hub: z.string() }) })).toEqual({ hub: "alpha" });
  });

  it("every read and its operation: discovery, hub, leaderboard, holder, stakeStatus", async () => {
    const seen: string[] = [];
    const spy = (name: string) => z.unknown().refine(() => seen.push(name) > 0);
    const hub = clientWith({ discovery: spy("discovery"), hub: spy("hub"), leaderboard: spy("leaderboard"), holder: spy("holder"), stakeStatus: spy("stakeStatus") });
    await hub.discover();
    await hub.getHub();
    await hub.getLeaderboard();
    await hub.getHolder(WALLET);
    await hub.getStakeStatus(WALLET);
    expect(seen).toEqual(["discovery", "hub", "leaderboard", "holder", "stakeStatus"]);
  });
});

describe('validate: "throw" (the default)', () => {
  it("a misfit is a HubSchemaError naming the operation and every failing field with its rule", async () => {
    answerHolder({ wallet: WALLET, bits: "12", extra: true });
    const error = (await failure(clientWith({ holder }).getHolder(WALLET))) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(error).toBeInstanceOf(HubResponseError);
    expect(error).toBeInstanceOf(HubError);
    expect(error.name).toBe("HubSchemaError");
    expect(error).toMatchObject({ operation: "holder", status: 200, problem: "schema-mismatch", applied: false, mayHaveBeenApplied: false });
    expect(error.issues.map((issue) => issue.path)).toEqual([["bits"], ["tokens"]]);
    expect(error.message).toMatch(/^Unusable 200 response \(schema-mismatch\): the holder answer does not fit its schema: bits: .*expected number.*; tokens: .*expected number/);
    // The data exactly as sent: the field the schema does not declare is still there.
    expect(error.data).toEqual({ wallet: WALLET, bits: "12", extra: true });
    expect(error.body).toBe(error.data);
  });

  it("toJSON carries every field the error declares but the decoded data (the body: size, wallets), kept on the error", async () => {
    answerHolder({ wallet: WALLET, bits: 1 });
    const error = (await failure(clientWith({ holder }).getHolder(WALLET))) as HubSchemaError;
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({ name: "HubSchemaError", message: error.message, status: 200, problem: "schema-mismatch", operation: "holder", applied: false, mayHaveBeenApplied: false });
    expect(json.issues).toEqual([{ path: ["tokens"], message: expect.any(String), code: "schema_mismatch" }]);
    expect(json).not.toHaveProperty("data");
    expect(error.data).toEqual({ wallet: WALLET, bits: 1 });
  });

  it("nothing is skipped: a bare array where the leaderboard declared an object fails its schema", async () => {
    const hub = clientWith({ leaderboard: z.object({ entries: z.array(z.object({ wallet: z.string() })) }) });
    server.use(http.get(`${mock.baseUrl}/hub/alpha/leaderboard`, () => HttpResponse.json([{ wallet: WALLET }])));
    const error = await failure(hub.getLeaderboard());
    expect(error).toMatchObject({ name: "HubSchemaError", operation: "leaderboard", data: [{ wallet: WALLET }] });
  });

  it.each(["throw", "warn", "off"] as const)("nothing is skipped: an empty or non-JSON read answer is an error (validate %s)", async (validate) => {
    const hub = clientWith({ holder }, { validate });
    server.use(http.get(HOLDER_URL, () => new HttpResponse(null, { status: 200 })));
    expect(await failure(hub.getHolder(WALLET))).toMatchObject({ name: "HubResponseError", problem: "empty-body" });
    server.use(http.get(HOLDER_URL, () => HttpResponse.text("<html>ok</html>")));
    expect(await failure(hub.getHolder(WALLET))).toMatchObject({ name: "HubResponseError", problem: "invalid-json" });
  });

  it("a subclass's own call with a schema names its method and path", async () => {
    class Pinging extends HubClient {
      ping() {
        return this.request({ name: "ping", segments: ["hub", "alpha"] }, { schema: z.object({ missing: z.string() }) });
      }
    }
    const error = await failure(new Pinging(options).ping());
    expect(error).toMatchObject({ name: "HubSchemaError", operation: "GET /hub/alpha" });
  });
});

describe('validate: "warn" and "off"', () => {
  it('"warn": the data as sent, and one log record per operation and field path', async () => {
    answerHolder({ wallet: 7, bits: "12", tokens: 1 });
    const log = logger();
    const hub = clientWith({ holder: holder.extend({ bits: z.number().int().positive() }) }, { validate: "warn", logLevel: "warn", logger: log });
    expect(await hub.getHolder(WALLET)).toEqual({ wallet: 7, bits: "12", tokens: 1 });
    expect(log.lines).toHaveLength(2);
    expect(log.lines[0]).toMatch(/^\[public-hub\] schema-mismatch operation=holder path=wallet rule="[^"]*expected string[^"]*" status=200$/);
    expect(log.lines[1]).toMatch(/^\[public-hub\] schema-mismatch operation=holder path=bits rule=".*expected number.*" status=200/);
  });

  it('"warn": an answer that fits is the schema\'s output, and logs nothing', async () => {
    const log = logger();
    const hub = clientWith({ holder }, { validate: "warn", logLevel: "debug", logger: log });
    expect(await hub.getHolder(WALLET)).toEqual({ wallet: WALLET, bits: 0, tokens: 0 });
    expect(log.lines.filter((line) => line.includes("schema"))).toEqual([]);
  });

  it('"off": the schema is never run, the body is returned as sent', async () => {
    const validate = vi.fn(() => ({ issues: [{ message: "never" }] }));
    const hub = clientWith({ holder: { "~standard": { version: 1, vendor: "spy", validate } } }, { validate: "off" });
    answerHolder({ anything: 1 });
    expect(await hub.getHolder(WALLET)).toEqual({ anything: 1 });
    expect(validate).not.toHaveBeenCalled();
  });

  it("a call's own validate overrides the client's, both ways", async () => {
    answerHolder({ bits: "x" });
    await expect(clientWith({ holder }, { validate: "off" }).getHolder(WALLET, { validate: "throw" })).rejects.toBeInstanceOf(HubSchemaError);
    await expect(clientWith({ holder }).getHolder(WALLET, { validate: "off" })).resolves.toEqual({ bits: "x" });
  });
});

describe("the schema options are checked before anything is sent", () => {
  it.each([
    ["a validate mode", { validate: "strict" }, ["validate"], "validate must be throw, warn, off"],
    ["schemas", { schemas: "holder" }, ["schemas"], "schemas must be an object of Standard Schemas by operation: discovery, hub, leaderboard, holder, stakeStatus, award"],
    ["a schema", { schemas: { holder: { parse: () => 1 } } }, ["schemas"], "schemas must be an object of Standard Schemas by operation: discovery, hub, leaderboard, holder, stakeStatus, award"],
    ["a misspelt operation", { schemas: { holders: holder } }, ["schemas"], "schemas must be an object of Standard Schemas by operation: discovery, hub, leaderboard, holder, stakeStatus, award"],
  ])("%s", (_what, bad, path, message) => {
    const error = (() => {
      try {
        new HubClient({ ...options, ...(bad as object) });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path, message })]);
    expect(mock.requests).toHaveLength(0);
  });

  it("a call's own schema and validate are checked too, and nothing is sent", async () => {
    const hub = clientWith({ holder });
    const bad = [
      [{ schema: { parse: () => 1 } }, ["schema"], "schema must be a Standard Schema (zod, valibot…: with ~standard.validate)"],
      [{ validate: "loud" }, ["validate"], "validate must be throw, warn, off"],
    ] as const;
    for (const [options, path, message] of bad) {
      const error = await failure(hub.getHolder(WALLET, options as never));
      expect(error).toBeInstanceOf(HubValidationError);
      expect((error as HubValidationError).issues).toEqual([expect.objectContaining({ path, message })]);
    }
    expect(mock.requests).toHaveLength(0);
  });

  it("a schema may be a function (arktype's are) and undefined operations are fine", () => {
    const callable = Object.assign(() => undefined, { "~standard": { version: 1 as const, vendor: "fn", validate: (value: unknown) => ({ value }) } });
    expect(() => new HubClient({ ...options, schemas: { holder: callable, hub: undefined } })).not.toThrow();
  });
});

describe("the lists the schemas' checks use at run time", () => {
  // That they are the types' own (operations, modes, row keys) is a type test: schemas.test-d.ts.
  it("the validate modes are the three the option names", () => {
    expect([...VALIDATE_MODES].sort()).toEqual(["off", "throw", "warn"]);
  });
});
