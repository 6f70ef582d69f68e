import { CLIENT_DEFAULTS } from "./defaults";

/**
 * The SDK's own log lines, in logfmt (`[public-hub] attempt method=GET url=https://… status=200
 * ms=12`): one event name and its fields, easy to grep and to parse. Off below the chosen level,
 * and built only when written, so a silent client pays one comparison per event. Fields name
 * methods, origins and paths, statuses, attempts, durations and request ids; never a key, a
 * signature, a body or a query string (it may hold a wallet).
 */

/**
 * How much the client logs.
 * @example
 * ```ts
 * const level: LogLevel = "debug"; // every attempt, wait and correction
 * ```
 */
export type LogLevel = "off" | "error" | "warn" | "info" | "debug";

/**
 * Where log lines go: `console`, pino, winston… anything with these four methods.
 * @example
 * ```ts
 * const logger: Logger = { debug: () => {}, info: console.info, warn: console.warn, error: console.error };
 * ```
 */
export interface Logger {
  /** Every attempt and retry wait. */
  debug(message: string): void;
  /** Retries, rate-limit pauses, clock corrections. */
  info(message: string): void;
  /** Something the caller may want to change: a spent retry budget, a write retried for the clock. */
  warn(message: string): void;
  /** A write whose outcome is unknown. */
  error(message: string): void;
}

/**
 * Writes one event at a level; `fields` is called only when the level is on. What subclasses of
 * `HubClient` get as `this.log`.
 * @example
 * ```ts
 * this.log("info", "cache-hit", () => ({ key }));
 * ```
 */
export type Log = (level: Exclude<LogLevel, "off">, event: string, fields: () => Record<string, unknown>) => void;

/** The levels, quietest first. */
export const LEVELS: readonly LogLevel[] = ["off", "error", "warn", "info", "debug"];

/** `PUBLIC_HUB_LOG` from the environment, where there is one and reading it is allowed. */
function fromEnvironment(): LogLevel | undefined {
  try {
    const value = (globalThis as { process: { env: Record<string, string | undefined> } }).process.env.PUBLIC_HUB_LOG;
    return LEVELS.find((level) => level === value);
  } catch {
    // No process or no env (a browser), Deno without --allow-env, a locked-down sandbox: no level
    // from the environment.
  }
}

/** The client's log: `logLevel`, else `PUBLIC_HUB_LOG`, else `"warn"`. */
export function createLog(logLevel: LogLevel | undefined, logger: Logger = console): Log {
  const max = LEVELS.indexOf(logLevel ?? fromEnvironment() ?? CLIENT_DEFAULTS.logLevel);
  return (level, event, fields) => {
    if (LEVELS.indexOf(level) > max) return;
    let line = `[public-hub] ${event}`;
    for (const [key, value] of Object.entries(fields())) {
      if (value !== undefined) line += ` ${key}=${/[\s"=]/.test(String(value)) ? JSON.stringify(value) : value}`;
    }
    logger[level](line);
  };
}

/** A URL as log lines show it: origin and path, never the query. */
export const where = (url: string | URL) => {
  const { origin, pathname } = new URL(url);
  return origin + pathname;
};
