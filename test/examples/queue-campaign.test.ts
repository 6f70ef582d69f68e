// The queue example's pieces that need no Redis: the file reader, the job ids, the limiter, the
// client options and the processor's decisions against the spec mock. The whole path, with a real
// redis-server and worker processes, is test/e2e/queue-campaign.mjs (`npm run e2e:queue`).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RateLimitError as QueueRateLimitError, UnrecoverableError } from "bullmq";
import { afterAll, describe, expect, it, vi } from "vitest";
import { HubConnectionError, ServerError } from "public-hub-sdk/server";
import { jobIdOf } from "../../examples/queue-campaign/award-queue";
import { positiveNumber, workerClientOptions } from "../../examples/queue-campaign/client-options";
import { awardProcessor } from "../../examples/queue-campaign/process-award";
import { AwardFileError, checkAwardFile, readAwards } from "../../examples/queue-campaign/read-awards";
import { LuaRedis } from "../helpers/lua-redis";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const dir = mkdtempSync(join(tmpdir(), "queue-campaign-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const file = (name: string, text: string) => {
  const path = join(dir, `${files++}-${name}`);
  writeFileSync(path, text);
  return path;
};
const collect = async (path: string) => {
  const lines = [];
  for await (const entry of readAwards(path)) lines.push(entry);
  return lines;
};

describe("examples/queue-campaign/read-awards.ts", () => {
  it("reads CSV of amounts, with quoted fields and an empty reason", async () => {
    const path = file("a.csv", 'wallet,amount,reason,ref\n0xa,10,"quest, part 2",q-1:0xa\n\n0xb,2.5,,q-1:0xb\n');
    expect(await collect(path)).toEqual([
      { line: 2, award: { wallet: "0xa", amount: 10, reason: "quest, part 2", ref: "q-1:0xa" } },
      { line: 4, award: { wallet: "0xb", amount: 2.5, ref: "q-1:0xb" } },
    ]);
  });

  it("reads CSV of kinds, columns in any order", async () => {
    const path = file("k.csv", "ref,wallet,kind\nlogin:0xa,0xa,daily-login\n");
    expect(await collect(path)).toEqual([{ line: 2, award: { wallet: "0xa", kind: "daily-login", ref: "login:0xa" } }]);
  });

  it("reads JSON Lines of both shapes", async () => {
    const path = file("m.jsonl", '{"wallet":"0xa","amount":3,"ref":"r1"}\n\n{"wallet":"0xb","kind":"daily-login","ref":"r2"}\n');
    expect(await collect(path)).toEqual([
      { line: 1, award: { wallet: "0xa", amount: 3, ref: "r1" } },
      { line: 3, award: { wallet: "0xb", kind: "daily-login", ref: "r2" } },
    ]);
  });

  it("refuses an unknown header", async () => {
    const path = file("h.csv", "wallet,points,ref\n0xa,1,r1\n");
    await expect(checkAwardFile(path)).rejects.toThrow(/header must be wallet,amount,reason,ref or wallet,kind,ref/);
  });

  it("lists every bad line and every ref used twice, by line number", async () => {
    const path = file("bad.csv", "wallet,amount,reason,ref\n0xa,10,ok,r1\n0xb,ten,bad,r2\n,1,no wallet,r3\n0xc,1,again,r1\n0xd,1\n");
    const error = await checkAwardFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AwardFileError);
    expect((error as AwardFileError).problems).toEqual([
      "line 3: amount must be a finite number",
      "line 4: wallet must not be empty",
      'line 5: ref "r1" already used on line 2',
      "line 6: 2 fields, the header has 4",
    ]);
  });

  it("refuses JSON that is not an award, or is both shapes", async () => {
    const path = file("bad.jsonl", '{"wallet":"0xa","amount":1,"kind":"x","ref":"r1"}\nnot json\n{"wallet":"0xa","ref":"r2"}\n');
    const problems = ((await checkAwardFile(path).catch((e: unknown) => e)) as AwardFileError).problems;
    expect(problems[0]).toBe('line 1: unknown field "amount": this award takes wallet, kind, ref (give either amount or kind, not both)');
    expect(problems[1]).toBe("line 2: not valid JSON");
    expect(problems[2]).toMatch(/^line 3: /);
  });

  it("counts the awards of a good file", async () => {
    expect(await checkAwardFile(file("ok.jsonl", '{"wallet":"0xa","amount":1,"ref":"r1"}\n{"wallet":"0xa","amount":1,"ref":"r2"}\n'))).toBe(2);
  });
});

describe("examples/queue-campaign/award-queue.ts jobIdOf", () => {
  it("makes a valid BullMQ id of any ref: no ':', never an integer, one id per ref", () => {
    const refs = ["quest-42:0xabc", "1001", "a:b:c", "a%3Ab", "a:b", " spaced ", "ünï"];
    const ids = refs.map(jobIdOf);
    for (const id of ids) {
      expect(id).not.toContain(":");
      expect(`${parseInt(id, 10)}`).not.toBe(id);
    }
    expect(new Set(ids).size).toBe(refs.length);
    expect(ids.map((id) => decodeURIComponent(id.slice("award_".length)))).toEqual(refs);
  });
});

describe("examples/queue-campaign/client-options.ts", () => {
  const env = { HUB_BASE_URL: "https://hub.example.com/api/v1", HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "s" };

  it("leaves retries to the queue", () => {
    expect(workerClientOptions(env)).toMatchObject({ hub: "alpha", retry: 0 });
  });

  it("shares the hub's budget through the queue's Redis unless HUB_BUDGET=local; anything else is refused by name", () => {
    const redis = new LuaRedis() as never;
    expect(workerClientOptions(env, redis).budget).toBeDefined();
    expect(workerClientOptions({ ...env, HUB_BUDGET: "redis" }, redis).budget).toBeDefined();
    expect(workerClientOptions({ ...env, HUB_BUDGET: "local" }, redis).budget).toBeUndefined();
    expect(() => workerClientOptions({ ...env, HUB_BUDGET: "shared" }, redis)).toThrow('HUB_BUDGET must be redis or local (got "shared")');
  });

  it("reads a positive number from the environment, or refuses it by name", () => {
    expect(positiveNumber({ WORKER_CONCURRENCY: "30" }, "WORKER_CONCURRENCY")).toBe(30);
    expect(positiveNumber({}, "WORKER_CONCURRENCY")).toBeUndefined();
    expect(() => positiveNumber({ WORKER_CONCURRENCY: "fast" }, "WORKER_CONCURRENCY")).toThrow('WORKER_CONCURRENCY must be a positive number (got "fast")');
  });

  it("names a missing variable", () => {
    expect(() => workerClientOptions({ ...env, HUB_SECRET: "" })).toThrow("HUB_SECRET is not set");
  });
});

describe("examples/queue-campaign/process-award.ts", () => {
  const { mock } = useHubMock();
  const award = { wallet: "0xabc", amount: 10, reason: "campaign", ref: "campaign-7:0xabc" };
  const processor = (pause = vi.fn(async (_ms: number) => {}), overrides = {}) => ({
    pause,
    run: awardProcessor(serverClient(mock.baseUrl, { retry: 0, ...overrides }), pause),
  });

  it("awards once; the same job again is a duplicate", async () => {
    const { run } = processor();
    expect(await run({ data: award })).toEqual({ duplicate: false, balance: 10 });
    expect(await run({ data: award })).toEqual({ duplicate: true, balance: 10 });
    expect(mock.ledger).toHaveLength(1);
  });

  it("leaves a lost answer to BullMQ's retry, which the ref makes safe", async () => {
    const { run } = processor();
    mock.loseNextWrites(1);
    const error = await run({ data: award }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).not.toBeInstanceOf(UnrecoverableError);
    expect(await run({ data: award })).toEqual({ duplicate: true, balance: 10 });
    expect(mock.ledger).toHaveLength(1);
    expect(mock.requests).toHaveLength(2); // one send per attempt: the client itself did not retry
  });

  it("leaves a 5xx to BullMQ's retry", async () => {
    mock.failNext(1);
    const error = await processor().run({ data: award }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(mock.requests).toHaveLength(1);
  });

  it("pauses the queue for a 429, for its Retry-After, without using an attempt", async () => {
    mock.rateLimitNext(1, 3);
    const { run, pause } = processor();
    await expect(run({ data: award })).rejects.toBeInstanceOf(QueueRateLimitError);
    expect(pause).toHaveBeenCalledWith(3_000);
    expect(mock.ledger).toHaveLength(0);
  });

  it("pauses 1 s for a 429 without Retry-After", async () => {
    mock.failNext(1, { status: 429, body: "{}", contentType: "application/json" });
    const { run, pause } = processor();
    await expect(run({ data: award })).rejects.toBeInstanceOf(QueueRateLimitError);
    expect(pause).toHaveBeenCalledWith(1_000);
  });

  it("fails for good an award the client refuses, sending nothing", async () => {
    const error = await processor().run({ data: { ...award, amount: -1 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toMatch(/^HubValidationError: .*amount must be greater than 0/);
    expect(mock.requests).toHaveLength(0);
  });

  it("fails for good what the server refuses, naming the status and never the secret", async () => {
    const error = await processor(undefined, { hub: "beta" }).run({ data: award }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect((error as Error).message).toMatch(/^ForbiddenError: .*\(request id req_mock_\d+\)$/);
    expect((error as Error).message).not.toContain("demo-secret-alpha");
  });
});
