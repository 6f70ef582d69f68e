/** Where a CLI run reads its settings and writes its output; the bin passes the process's own. */
// @ts-nocheck

export interface CliIo {
  /** Environment variables (credentials come from here unless given as flags). */
  env: Record<string, string | undefined>;
  /** Results: summaries, JSON. */
  stdout: Output;
  /** Progress and diagnostics. */
  stderr: Output;
  /** Whether stderr is a terminal: a live progress bar, else plain periodic lines. */
  isTTY: boolean;
  /** Fires on Ctrl-C: a campaign stops sending and prints how to resume. */
  signal?: AbortSignal;
  /** Milliseconds between plain progress lines when stderr is not a terminal. */
  progressIntervalMs?: number;
}

/** Just enough of a writable stream. */
export interface Output {
  write(text: string): unknown;
}

/** Bad arguments or input: exit code 2, with the message and a hint to `--help`. */
export class UsageError extends Error {
  override name = "UsageError";
}

export const EXIT = { ok: 0, failed: 1, usage: 2, interrupted: 130 } as const;

export const println = (out: Output, text = "") => out.write(`${text}\n`);
export const printJson = (out: Output, value: unknown) => out.write(`${JSON.stringify(value, null, 2)}\n`);
