// @ts-nocheck
import { UsageError } from "./io";

const REASONS: Record<string, string> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a directory",
  EMFILE: "too many open files",
};

/** "cannot read x.csv: no such file (ENOENT)": the file as the user named it, and why. */
export function unreadable(what: string, error: unknown): UsageError {
  const code = (error as { code?: string }).code;
  const why = code ? `${REASONS[code] ?? (error as Error).message} (${code})` : String((error as Error)?.message ?? error);
  return new UsageError(`cannot read ${what}: ${why}`);
}
