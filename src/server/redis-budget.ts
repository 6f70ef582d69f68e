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
   * @default 250
   */
  timeoutMs?: number;
  /**
   * After Redis failed or was slow: how long the process paces on its own before it asks again.
   * @default 1000
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
/** Commits that found the pace changed by another process, before the process paces on its own for once. */
const MAX_TRIES = 8;

// KEYS[1] the budget; ARGV[1] the version the pace was read at ("" to read), ARGV[2] the new pace,
// ARGV[3] the idle expiry. Commits when nobody wrote since; else returns the pace, its version and
// Redis's time (seconds, microseconds).
const SCRIPT = `local v = redis.call('HGET', KEYS[1], 'v') or '0'
if ARGV[1] == v then
  redis.call('HSET', KEYS[1], 'v', tostring(tonumber(v) + 1), 'p', ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return {1}
end
local t = redis.call('TIME')
return {0, v, redis.call('HGET', KEYS[1], 'p') or '', t[1], t[2]}`;

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
  const { prefix = "public-hub:budget:", timeoutMs = 250, retryMs = 1_000 } = options;
  return {
    open(name, log) {
      const key = prefix + name;
      /** The pace this process uses while Redis is away: the last shared one it saw, on its own clock. */
      let local = newPace();
      /** The last pace read or committed, its version, and Redis's clock less this machine's. */
      let seen: { version: string; json: string; offset: number } | undefined;
      let awayUntil = 0;
      const exchange = async <T>(step: (pace: Pace) => T): Promise<T> => {
        for (let tries = 0; tries < MAX_TRIES; tries++) {
          if (!seen) {
            const [, version, json, s, us] = (await redis.eval(SCRIPT, 1, key, "", "", IDLE_MS)) as [number, string, string, string, string];
            seen = { version, json, offset: Number(s) * 1000 + Number(us) / 1000 - Date.now() };
          }
          const { version, json, offset } = seen;
          const pace = json ? shifted(JSON.parse(json) as Pace, -offset) : newPace();
          const result = step(pace);
          const next = JSON.stringify(shifted(pace, offset));
          const answer = (await redis.eval(SCRIPT, 1, key, version, next, IDLE_MS)) as [number, string?, string?, string?, string?];
          if (answer[0] === 1) {
            seen = { version: String(Number(version) + 1), json: next, offset };
            local = pace;
            return result;
          }
          // Another process changed it: its pace, and Redis's clock, read again in the same answer.
          const [, v, j, s, us] = answer as [number, string, string, string, string];
          seen = { version: v, json: j, offset: Number(s) * 1000 + Number(us) / 1000 - Date.now() };
        }
        throw new Error(`the budget changed under ${MAX_TRIES} commits in a row`);
      };
      /** One exchange at a time in this process: its own calls never race each other's commits. */
      let queue: Promise<unknown> = Promise.resolve();
      return {
        update(step) {
          const run = async () => {
            if (Date.now() < awayUntil) return step(local);
            let timer: ReturnType<typeof setTimeout> | undefined;
            try {
              const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer from Redis within ${timeoutMs} ms`)), timeoutMs)));
              return await Promise.race([exchange(step), late]);
            } catch (error) {
              seen = undefined;
              awayUntil = Date.now() + retryMs;
              log("budget-away", { key, error: (error as Error | null)?.message ?? String(error), retryMs });
              return step(local);
            } finally {
              clearTimeout(timer);
            }
          };
          const result = queue.then(run);
          queue = result.catch(() => undefined);
          return result;
        },
      };
    },
  };
}
