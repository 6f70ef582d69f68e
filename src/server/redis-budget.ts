/**
 * One budget per hub key, shared through Redis by every process that awards with the key: what the
 * hub announced (its window's `remaining` and reset), a pause a 429 or 503 asked for, and the rate
 * adapted to a limit that says nothing. Each process runs the SDK's own pacing steps
 * (src/core/pace.ts) on the shared pace, committed with a compare-and-set script (Redis's own
 * atomic scripts: no library, no lock). Redis away: each process paces on its own, and shares again
 * when Redis is back; a campaign never fails because the budget is away.
 */
import { HubValidationError } from "../core/errors";
import { newPace, type HubBudget, type Pace } from "../core/pace";

/**
 * The one Redis command the budget sends, as ioredis (what BullMQ uses) has it. With node-redis:
 * `{ eval: (script, keys, ...args) => client.eval(script, { keys: args.slice(0, keys).map(String), arguments: args.slice(keys).map(String) }) }`.
 */
export interface RedisEval {
  /** Runs a Lua script on `numberOfKeys` keys then its arguments; resolves with its reply. */
  eval(script: string, numberOfKeys: number, ...args: Array<string | number>): Promise<unknown>;
}

/** Options of {@link redisBudget}. */
export interface RedisBudgetOptions {
  /**
   * The start of each budget's Redis key; the rest names the hub key (client id and base URL).
   * @default "public-hub:budget:"
   */
  prefix?: string;
  /**
   * The longest one exchange with Redis may take; slower, the process paces on its own meanwhile.
   * @default 500
   */
  timeoutMs?: number;
  /**
   * After Redis failed or was slow: how long the process paces on its own before it asks again.
   * @default 2000
   */
  retryMs?: number;
}

/** Where a server client keeps its hub key's pace, given as its `budget` option: made by {@link redisBudget}. */
export interface BudgetStore {
  /** The budget of one hub key, called once per client with the key's name and the client's log (`event`, `fields`: a warning). */
  open(key: string, log: (event: string, fields: Record<string, unknown>) => void): HubBudget;
}

/** An idle budget is forgotten after this long: a pace says nothing after minutes. */
const IDLE_MS = 600_000;

// KEYS[1] the budget; ARGV[1] the pace as it was read ("?" to read: no pace is "?"), ARGV[2] the new
// pace, ARGV[3] the idle expiry. Commits when the stored pace is still the one read — the value
// itself, so that no restart or expiry can make a stale process's read look current (a counter
// starts again at 0) — else returns the pace and Redis's time (seconds, microseconds).
const SCRIPT = `local p = redis.call('HGET', KEYS[1], 'p') or ''
if ARGV[1] == p then
  redis.call('HSET', KEYS[1], 'p', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {1}
end
local t = redis.call('TIME')
return {0, p, t[1], t[2]}`;

/** A time of the pace moved by `by` ms; 0 ("never") stays 0. */
const moved = (t: number, by: number) => (t === 0 ? 0 : t + by);

/** The pace with every time moved by `by` ms: from Redis's clock to this machine's, or back. */
function shifted(pace: Pace, by: number): Pace {
  const { allowance, throttled, older, newer } = pace;
  return {
    pausedUntil: moved(pace.pausedUntil, by),
    lastStart: moved(pace.lastStart, by),
    started: pace.started,
    allowance: allowance && { ...allowance, until: moved(allowance.until, by) },
    throttled: throttled && { ...throttled, at: moved(throttled.at, by) },
    older: [moved(older[0], by), older[1]],
    newer: [moved(newer[0], by), newer[1]],
  };
}

/**
 * A budget kept in Redis, for `HubServerClient`'s `budget` option: every process (and machine)
 * awarding with the same hub key shares one pace, kept on Redis's clock. A single process needs
 * none: its client keeps its pace in memory.
 * @throws {HubValidationError} when `redis` has no `eval` method.
 * @example
 * ```ts
 * import { Redis } from "ioredis";
 * import { HubServerClient, redisBudget } from "public-hub-sdk/server";
 *
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret, budget: redisBudget(new Redis(process.env.REDIS_URL!)) });
 * ```
 */
export function redisBudget(redis: RedisEval, options: RedisBudgetOptions = {}): BudgetStore {
  if (typeof (redis as Partial<RedisEval> | null)?.eval !== "function") {
    throw new HubValidationError({ what: "budget", issues: [{ path: ["redis"], code: "invalid_type", message: "redis must be a Redis client with eval (ioredis, or node-redis wrapped: see RedisEval)" }] });
  }
  const { prefix = "public-hub:budget:", timeoutMs = 500, retryMs = 2_000 } = options;
  return {
    open(name, log) {
      const key = prefix + name;
      /** The pace this process uses while Redis is away: the last shared one it saw, on its own clock. */
      let local = newPace();
      /** The last pace read or committed (as stored), and Redis's clock less this machine's. */
      let seen: { json: string; offset: number } | undefined;
      let awayUntil = 0;
      let draining = false;
      // One commit for every step waiting in this process (a campaign's turns come in bursts):
      // each refused commit means another process's went in, so it ends; `timeoutMs` bounds it all
      // the same (`late`, below, stops it).
      const exchange = async (steps: Array<(pace: Pace) => unknown>, late: { past?: boolean }): Promise<unknown[]> => {
        while (!late.past) {
          if (!seen) {
            const [, json, s, us] = (await redis.eval(SCRIPT, 1, key, "?", "", IDLE_MS)) as [number, string, string, string];
            seen = { json, offset: Number(s) * 1000 + Number(us) / 1000 - Date.now() };
          }
          const { json, offset } = seen;
          const pace = json ? shifted(JSON.parse(json) as Pace, -offset) : newPace();
          const results = steps.map((step) => step(pace));
          const next = JSON.stringify(shifted(pace, offset));
          const answer = (await redis.eval(SCRIPT, 1, key, json, next, IDLE_MS)) as [number, string?, string?, string?];
          if (answer[0] === 1) {
            seen = { json: next, offset };
            local = pace;
            return results;
          }
          // Another process changed it (or Redis lost it): its pace, and Redis's clock, read again in the same answer.
          const [, j, s, us] = answer as [number, string, string, string];
          seen = { json: j, offset: Number(s) * 1000 + Number(us) / 1000 - Date.now() };
        }
        throw new Error("stopped: late");
      };
      /** Steps waiting for the exchange in flight; one exchange at a time in this process. */
      let waiting: Array<{ step: (pace: Pace) => unknown; resolve: (result: unknown) => void; reject: (error: unknown) => void }> = [];
      const drain = async () => {
        draining = true;
        while (waiting.length > 0) {
          const batch = waiting;
          waiting = [];
          let results: unknown[] | undefined;
          if (Date.now() >= awayUntil) {
            let timer: ReturnType<typeof setTimeout> | undefined;
            const late: { past?: boolean } = {};
            try {
              const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs)));
              results = await Promise.race([exchange(batch.map(({ step }) => step), late), deadline]);
            } catch (error) {
              late.past = true;
              seen = undefined;
              awayUntil = Date.now() + retryMs;
              log("budget-away", { key, error: (error as Error | null)?.message ?? String(error), retryMs });
            } finally {
              clearTimeout(timer);
            }
          }
          // Redis away: the steps run on this process's own pace (a step that throws fails its own call only).
          batch.forEach(({ step, resolve, reject }, i) => {
            try {
              resolve(results ? results[i] : step(local));
            } catch (error) {
              reject(error);
            }
          });
        }
        // In the same step as the loop's last look: an update made after it starts a new drain.
        draining = false;
      };
      return {
        update<T>(step: (pace: Pace) => T) {
          return new Promise<T>((resolve, reject) => {
            waiting.push({ step, resolve: resolve as (result: unknown) => void, reject });
            if (!draining) void drain();
          });
        },
      };
    },
  };
}
