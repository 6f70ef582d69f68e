import type { FileHandle } from "node:fs/promises";
import type { CampaignJournal, JournalEntry } from "./types";

type Fs = typeof import("node:fs/promises");

/**
 * A Node built-in, found at run time (Node ≥ 20.16, Bun, Deno), never by an `import` a bundler
 * sees: a worker's bundle of `public-hub-sdk/server` must build without `node:fs`.
 */
async function builtin<T>(id: string): Promise<T> {
  const found = (globalThis as { process?: { getBuiltinModule?(id: string): unknown } }).process?.getBuiltinModule?.(id);
  if (!found) throw new Error(`no ${id}`);
  return found as T;
}

const KIND = "public-hub-sdk/campaign-journal";
const CHUNK = 1 << 20;

/**
 * Options of the file journal.
 * @example
 * ```ts
 * const options: FileJournalOptions = { hub: "alpha", durable: true };
 * ```
 */
export interface FileJournalOptions {
  /** The hub the campaign awards in; a journal written for another hub is refused. */
  hub?: string | undefined;
  /**
   * `fdatasync` after each group of lines, before the awards count as applied. Off, a power loss
   * may forget the last lines (their awards are then resent with their `ref`: still safe).
   * @default true
   */
  durable?: boolean;
  /** Makes the error for an unreadable journal (the SDK passes `HubValidationError`; see errors.ts). */
  invalid?: (what: string, path: PropertyKey[], message: string) => Error;
}

/** Whether process `pid` has ended (`kill(pid, 0)` fails with ESRCH; EPERM: it runs as another user). */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as { code?: string }).code === "ESRCH";
  }
}

/** The JSON value of a line, or `undefined` when it is not JSON. */
function json(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * The campaign journal as an append-only JSON Lines file (format in docs/spec-decisions.md,
 * "Campaigns"): a header line naming the hub, then one `{"ref","hash","status":"applied"}` per
 * award the hub holds. Lines recorded while a write is under way go out together in the next
 * write (group commit), each write followed by `fdatasync`. A torn last line (a crash mid-write) is
 * not an entry, and is cut before the first write; a whole last line without its newline (an
 * editor's save) is one. Any other unreadable line is an error, as is a file that is not a journal.
 * `node:fs` is imported when a journal is opened, never by the module graph of the server entry.
 */
export class FileJournal implements CampaignJournal {
  readonly #fs: Fs;
  readonly #path: string;
  readonly #hub: string | undefined;
  readonly #durable: boolean;
  readonly #invalid: NonNullable<FileJournalOptions["invalid"]>;
  #handle: FileHandle | undefined;
  #size = -1; // bytes of whole lines; -1 until loaded
  #torn = false; // the file ends with a torn line, cut before the first write
  #unterminated = false; // the file ends with a whole line without its newline
  #pending: string[] = [];
  #waiters: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  #flushing: Promise<void> | undefined;
  #locked = false;

  private constructor(fs: Fs, path: string, options: FileJournalOptions) {
    this.#fs = fs;
    this.#path = path;
    this.#hub = options.hub;
    this.#durable = options.durable ?? true;
    this.#invalid = options.invalid ?? ((what, _path, message) => new Error(`Invalid ${what}: ${message}`));
  }

  /** Opens (without reading yet) the journal at `path`; the file is created on the first record. */
  static async open(path: string, options: FileJournalOptions = {}): Promise<FileJournal> {
    return new FileJournal(await builtin<Fs>("node:fs/promises"), path, options);
  }

  /** Reads every entry, and where the last whole line ends (a torn line after it is not an entry). */
  async *load(): AsyncGenerator<JournalEntry> {
    let handle: FileHandle;
    try {
      handle = await this.#fs.open(this.#path, "r");
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOENT") throw error;
      this.#size = 0;
      return;
    }
    let good = 0; // end of the last whole line
    let lineNumber = 0;
    try {
      let carry = Buffer.alloc(0);
      const chunk = Buffer.alloc(CHUNK);
      for (;;) {
        const { bytesRead } = await handle.read(chunk, 0, CHUNK, null);
        if (bytesRead === 0) break;
        const data = Buffer.concat([carry, chunk.subarray(0, bytesRead)]);
        let start = 0;
        for (let end = data.indexOf(10); end !== -1; end = data.indexOf(10, start)) {
          const line = data.toString("utf8", start, end);
          lineNumber++;
          good += end - start + 1;
          start = end + 1;
          const entry = this.#parse(json(line), lineNumber);
          if (entry) yield entry;
        }
        carry = Buffer.from(data.subarray(start));
      }
      // An editor's save may drop the last newline: a whole line is still an entry (the next write
      // puts a newline first). A crash mid-write leaves a torn one, never whole JSON.
      const last = carry.length > 0 ? json(carry.toString("utf8")) : undefined;
      this.#unterminated = last !== undefined;
      if (this.#unterminated) {
        good += carry.length;
        const entry = this.#parse(last, lineNumber + 1);
        if (entry) yield entry;
      }
    } finally {
      await handle.close();
    }
    // A torn line: that award was not recorded. Only the first write cuts it: load() never writes
    // (a dry run reads a journal a live run may be appending to).
    this.#torn = (await this.#fs.stat(this.#path)).size !== good;
    this.#size = good;
  }

  /**
   * Makes this journal the file's one writer, before the first write (a campaign takes it before it
   * sends anything): `<path>.lock`, created exclusively, holds this process's id, and `close()`
   * removes it. A lock whose process is gone (a run killed) is taken over; any other lock refuses.
   */
  async lock(): Promise<void> {
    const lock = `${this.#path}.lock`;
    while (!this.#locked) {
      try {
        await this.#fs.writeFile(lock, `${process.pid}\n`, { flag: "wx" });
        this.#locked = true;
      } catch (error) {
        if ((error as { code?: string }).code !== "EEXIST") throw error;
        // Empty or unreadable: a lock being written right now, held.
        const pid = Number.parseInt(await this.#fs.readFile(lock, "utf8").catch(() => ""), 10);
        if (!gone(pid)) {
          throw this.#invalid("campaign journal", [], `${this.#path} is in use by another campaign (process ${Number.isNaN(pid) ? "unknown" : pid}, lock file ${lock}): wait for it to end, or delete the lock file if no campaign runs`);
        }
        await this.#fs.rm(lock, { force: true });
      }
    }
  }

  /** Appends one entry; resolves once it is written (and synced, when `durable`). */
  record(entry: JournalEntry): Promise<void> {
    this.#pending.push(`${JSON.stringify({ ref: entry.ref, hash: entry.hash, status: "applied" })}\n`);
    return new Promise((resolve, reject) => {
      this.#waiters.push({ resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  /** Waits for pending lines, then closes the file and removes its lock. */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    await this.#handle?.close();
    this.#handle = undefined;
    if (this.#locked) await this.#fs.rm(`${this.#path}.lock`, { force: true });
    this.#locked = false;
  }

  async #flush(): Promise<void> {
    try {
      while (this.#pending.length > 0) {
        const [lines, waiters] = [this.#pending, this.#waiters];
        [this.#pending, this.#waiters] = [[], []];
        try {
          await this.#write(lines.join(""));
          for (const waiter of waiters) waiter.resolve();
        } catch (error) {
          for (const waiter of waiters) waiter.reject(error);
        }
      }
    } finally {
      // Cleared in the same step that ends the loop: a record() made as soon as its predecessor
      // resolved must start a new flush, not join this one (which would never write it).
      this.#flushing = undefined;
    }
  }

  async #write(text: string): Promise<void> {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: loading again before a write only re-reads what is there (slower, same bytes)
    if (this.#size < 0) for await (const _ of this.load()); // record() without load(): find the last whole line first
    await this.lock();
    if (this.#torn) await this.#fs.truncate(this.#path, this.#size);
    this.#torn = false;
    const created = this.#size === 0;
    this.#handle ??= await this.#fs.open(this.#path, "a");
    const header = created ? `${JSON.stringify({ journal: KIND, version: 1, hub: this.#hub ?? null })}\n` : "";
    const bytes = Buffer.from((this.#unterminated ? "\n" : "") + header + text);
    this.#unterminated = false;
    await this.#handle.write(bytes);
    if (this.#durable) await this.#handle.datasync();
    if (created && this.#durable) await this.#syncDirectory();
    // Stryker disable next-line AssignmentOperator: a negative size makes the next write load the file again, which finds the right size
    this.#size += bytes.length;
  }

  // A new file's name must reach the disk too, or a power loss can lose the whole journal.
  async #syncDirectory(): Promise<void> {
    const { dirname } = await builtin<typeof import("node:path")>("node:path");
    const dir = await this.#fs.open(dirname(this.#path), "r").catch(() => undefined); // not on Windows
    await dir?.sync().catch(() => undefined);
    await dir?.close();
  }

  #parse(value: Record<string, unknown> | undefined, lineNumber: number): JournalEntry | undefined {
    if (lineNumber === 1) {
      if (value?.journal !== KIND || value.version !== 1) throw this.#error(1, `is not a campaign journal (no "${KIND}" header)`);
      if (this.#hub !== undefined && value.hub !== null && value.hub !== this.#hub) {
        throw this.#error(1, `was written for hub "${String(value.hub)}", not "${this.#hub}"`);
      }
      return undefined;
    }
    if (typeof value?.ref !== "string" || typeof value.hash !== "string" || value.status !== "applied") {
      throw this.#error(lineNumber, "is not a journal entry");
    }
    return { ref: value.ref, hash: value.hash, status: "applied" };
  }

  #error(lineNumber: number, message: string): Error {
    // The file's name in the message, not in the issue path: a path is printed joined with dots,
    // and "season.journal.1" reads as a file nobody made.
    return this.#invalid("campaign journal", [], `${this.#path}, line ${lineNumber} ${message}`);
  }
}
