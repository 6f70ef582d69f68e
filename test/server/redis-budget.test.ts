// One budget per hub key, shared through Redis: what one process learns from the hub (a pause, the
// window's allowance), every other obeys; counts never lost between processes; waits the same
// whatever Redis's clock says; Redis away, each process goes on with its own pace, and shares again
// when it is back. The Redis here runs the SDK's script in a real Lua VM (test/helpers/lua-redis.ts).
import { describe, expect, it } from "vitest";
import { HubClient, HubValidationError, RateLimitError } from "public-hub-sdk";
import { HubServerClient, redisBudget, type RedisBudgetOptions } from "public-hub-sdk/server";
import { failure } from "../helpers/caught";
import { capture } from "../helpers/log-lines";
import { LuaRedis } from "../helpers/lua-redis";
import { SECRET } from "../helpers/server-client";

const BASE = "https://h.test/api/v1";
const KEY = `public-hub:budget:pk_alpha ${BASE}`;

/** A fetch answering `headers` with `status` (the last entry repeats), counting what it was sent. */
function hub(answers: Array<{ status: number; headers?: Record<string, string> }>) {
  const sent: string[] = [];
  const fetch = async (url: string) => {
    const { status, headers = {} } = answers[Math.min(sent.length, answers.length - 1)]!;
    sent.push(url);
    return Response.json({ slug: "alpha" }, { status, headers });
  };
  return { sent, fetch: fetch as unknown as typeof globalThis.fetch };
}

/** A worker process's client: its own fetch, the one Redis. */
function worker(redis: LuaRedis, fetch: typeof globalThis.fetch, options: RedisBudgetOptions & { clientId?: string; maxRetryAfter?: number; logger?: ReturnType<typeof capture>["logger"] } = {}) {
  const { clientId = "pk_alpha", maxRetryAfter = 60_000, logger, ...budget } = options;
  return new HubServerClient({
    baseUrl: BASE,
    clientId,
    hub: "alpha",
    secret: SECRET,
    fetch,
    retry: { limit: 0, maxRetryAfter },
    budget: redisBudget(redis, budget),
    ...(logger ? { logger, logLevel: "warn" as const } : { logLevel: "off" as const }),
  });
}

const paceIn = (redis: LuaRedis, key = KEY) => JSON.parse(redis.hashes.get(key)!.get("p")!) as { pausedUntil: number; started: number };

describe("a budget shared through Redis", () => {
  it("a 429's pause met by one process holds the others: nothing sent, the wait on the error", async () => {
    const redis = new LuaRedis();
    const a = hub([{ status: 429, headers: { "retry-after": "30" } }]);
    const b = hub([{ status: 200 }]);
    expect(await failure(worker(redis, a.fetch).getHub())).toBeInstanceOf(RateLimitError);
    const error = (await failure(worker(redis, b.fetch, { maxRetryAfter: 5_000 }).getHub())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    // Its first call loads the Lua VM: on a busy machine, a few hundred ms of the 30 s are gone.
    expect(error.message).toMatch(/^Not sent: the hub allows the next request in (29\.\d|30) s, more than this call may wait \(5 s\)\.$/);
    expect(error.retryAfterMs).toBeGreaterThan(29_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(b.sent).toEqual([]);
  });

  it("after a Redis restart, a process that read the pace before it cannot overwrite a fresh pause: the commit compares the stored pace, not a counter", async () => {
    const redis = new LuaRedis();
    const stale = hub([{ status: 200 }]);
    const staleWorker = worker(redis, stale.fetch, { maxRetryAfter: 5_000 });
    await staleWorker.getHub();
    redis.hashes.clear(); // restarted, empty
    const fresh = hub([{ status: 429, headers: { "retry-after": "30" } }]);
    expect(await failure(worker(redis, fresh.fetch).getHub())).toBeInstanceOf(RateLimitError);
    // The stale process's next turn sees the pause (its commit refused, the pace read again): nothing sent.
    expect(await failure(staleWorker.getHub())).toMatchObject({ name: "RateLimitError", message: expect.stringMatching(/^Not sent: the hub allows the next request in (29\.\d|30) s/) });
    expect(stale.sent).toHaveLength(1);
    expect(paceIn(redis).pausedUntil).toBeGreaterThan(Date.now() + 29_000);
  });

  it("without it, each process keeps its own pace: the other one sends", async () => {
    const a = hub([{ status: 429, headers: { "retry-after": "30" } }]);
    const b = hub([{ status: 200 }]);
    const own = (fetch: typeof globalThis.fetch) => new HubServerClient({ baseUrl: BASE, clientId: "pk_alpha", hub: "alpha", secret: SECRET, fetch, retry: 0, logLevel: "off" });
    await failure(own(a.fetch).getHub());
    await own(b.fetch).getHub();
    expect(b.sent).toHaveLength(1);
  });

  it("the window's allowance one process learnt is spent by all: 2 left, 2 sent by another, the third not sent", async () => {
    const redis = new LuaRedis();
    await worker(redis, hub([{ status: 200, headers: { ratelimit: "limit=20, remaining=2, reset=30" } }]).fetch).getHub();
    const b = hub([{ status: 200 }]); // says nothing of the limit itself
    const client = worker(redis, b.fetch, { maxRetryAfter: 5_000 });
    await client.getHub();
    await client.getHub();
    const error = (await failure(client.getHub())) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.retryAfterMs).toBeGreaterThan(29_000);
    expect(b.sent).toHaveLength(2);
  });

  it("processes starting together lose no count: 4 × 10 calls are 40 starts in the shared pace, each process's waiting steps in one commit, none on its own pace", async () => {
    const redis = new LuaRedis();
    const { lines, logger } = capture();
    const clients = Array.from({ length: 4 }, () => worker(redis, hub([{ status: 200 }]).fetch, { logger }));
    await Promise.all(clients.flatMap((client) => Array.from({ length: 10 }, () => client.getHub())));
    expect(paceIn(redis).started).toBe(40);
    expect(lines).toEqual([]);
    // 40 turns and 40 answers, committed in far fewer exchanges than one each.
    expect(redis.evals).toBeLessThan(80);
  });

  it("Redis's clock apart from this machine's (an hour ahead): the pace is kept on Redis's, the wait is the same", async () => {
    const redis = new LuaRedis();
    redis.clockAheadMs = 3_600_000;
    await failure(worker(redis, hub([{ status: 503, headers: { "retry-after": "20" } }]).fetch).getHub());
    expect(paceIn(redis).pausedUntil - (Date.now() + redis.clockAheadMs)).toBeGreaterThan(19_000);
    expect(paceIn(redis).pausedUntil - (Date.now() + redis.clockAheadMs)).toBeLessThanOrEqual(20_000);
    const error = (await failure(worker(redis, hub([{ status: 200 }]).fetch, { maxRetryAfter: 1_000 }).getHub())) as RateLimitError;
    expect(error.retryAfterMs).toBeGreaterThan(19_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(20_000);
  });

  it("one budget per hub key: another client id has its own", async () => {
    const redis = new LuaRedis();
    await worker(redis, hub([{ status: 200 }]).fetch).getHub();
    await worker(redis, hub([{ status: 200 }]).fetch, { clientId: "pk_beta" }).getHub();
    expect([...redis.hashes.keys()].sort()).toEqual([KEY, `public-hub:budget:pk_beta ${BASE}`]);
    expect(redisBudget(redis, { prefix: "app:" }).open("k", () => undefined)).toBeDefined();
  });

  it.each(["silent", "refused"] as const)("Redis %s: the call goes on with the process's own pace, logged once; shared again once Redis is back", async (away) => {
    const redis = new LuaRedis();
    const { lines, logger } = capture();
    const b = hub([{ status: 200 }]);
    const client = worker(redis, b.fetch, { timeoutMs: 50, retryMs: 200, logger });
    await client.getHub();
    redis.away = away;
    await client.getHub();
    await client.getHub();
    expect(b.sent).toHaveLength(3);
    expect(lines.filter((line) => line.startsWith("[public-hub] budget-away"))).toHaveLength(1);
    expect(lines[0]).toContain(away === "silent" ? "error=\"no answer from Redis within 50 ms\"" : "ECONNREFUSED");
    redis.away = undefined;
    const before = redis.evals;
    await client.getHub(); // within retryMs: still its own
    expect(redis.evals).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 220));
    await client.getHub();
    expect(redis.evals).toBeGreaterThan(before);
  });

  it("a pause learnt while Redis was away is kept by the process: its own pace starts from the last shared one", async () => {
    const redis = new LuaRedis();
    const client = worker(redis, hub([{ status: 429, headers: { "retry-after": "30" } }, { status: 200 }]).fetch, { timeoutMs: 50, maxRetryAfter: 1_000 });
    await failure(client.getHub());
    redis.away = "refused";
    const error = (await failure(client.getHub())) as RateLimitError;
    expect(error.message).toMatch(/^Not sent/);
  });
});

describe("a budget's input", () => {
  it.each([undefined, null, {}, { eval: "no" }])("redisBudget(%j) is refused: a Redis client with eval", (redis) => {
    const error = (() => {
      try {
        redisBudget(redis as never);
      } catch (e) {
        return e;
      }
    })() as HubValidationError;
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.issues).toEqual([{ path: ["redis"], code: "invalid_type", message: "redis must be a Redis client with eval (ioredis, or node-redis wrapped: see RedisEval)" }]);
  });

  it.each([{}, null, "redis", { open: 1 }])("a budget option %j is refused, nothing sent", (budget) => {
    const b = hub([{ status: 200 }]);
    expect(() => new HubServerClient({ baseUrl: BASE, clientId: "pk_alpha", hub: "alpha", secret: SECRET, fetch: b.fetch, budget: budget as never })).toThrow(
      "Invalid client options: budget: budget must be a budget store (redisBudget() from public-hub-sdk/server)",
    );
  });

  it("a browser client has no budget: the option is named as the server client's", () => {
    expect(() => new HubClient({ baseUrl: BASE, clientId: "pk_alpha", hub: "alpha", budget: redisBudget(new LuaRedis()) } as never)).toThrow(/budget is for HubServerClient/);
  });
});

describe("a budget's steps", () => {
  it("a step that throws fails its own update only: the next ones, shared or on the process's own pace, still answer", async () => {
    const redis = new LuaRedis();
    const budget = redisBudget(redis, { timeoutMs: 50, retryMs: 10_000 }).open("k", () => undefined);
    const broken = budget.update(() => {
      throw new Error("a broken step");
    });
    const fine = budget.update((pace) => pace.started);
    await expect(broken).rejects.toThrow("a broken step");
    expect(await fine).toBe(0);
    expect(await budget.update((pace) => pace.pausedUntil)).toBe(0);
  });
});
