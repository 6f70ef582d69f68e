// @ts-nocheck
import type { Logger, LogLevel } from "public-hub-sdk";

/**
 * The SDK's log while a command owns the terminal (a campaign's progress bar): with `--verbose`
 * each line goes through `show` (above the bar) and info lines too; else warnings and errors are
 * counted by event and told once at the end, instead of being written over the bar.
 */
export function sdkLog(verbose: boolean, show: (line: string) => void) {
  const counts = new Map<string, number>();
  const write = (line: string) => {
    if (verbose) return show(line);
    const event = /^\[public-hub\] (\S+)/.exec(line)?.[1] ?? line;
    counts.set(event, (counts.get(event) ?? 0) + 1);
  };
  const logger: Logger = { debug: write, info: write, warn: write, error: write };
  const logLevel: LogLevel = verbose ? "info" : "warn";
  return {
    logger,
    logLevel,
    /** One line naming each event and how many times it came, or undefined when none did. */
    summary(): string | undefined {
      if (counts.size === 0) return undefined;
      const events = [...counts].map(([event, count]) => `${count} × ${event}`).join(", ");
      return `SDK log: ${events} (--verbose shows each line)`;
    },
  };
}
