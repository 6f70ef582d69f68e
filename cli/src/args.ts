import { parseArgs, type ParseArgsConfig } from "node:util";
import { connectionOptions } from "./credentials";
import { UsageError } from "./io";

/** Flags that may come before the command (`public-hub --base-url … hub`). */
export const GLOBAL = { ...connectionOptions, unwrap: { type: "string" }, json: { type: "boolean" } } as const;

/**
 * Splits `argv` into the command and its arguments; global flags written before the command are
 * moved after it, so each command parses one list.
 */
export function splitCommand(argv: string[]): { command: string | undefined; args: string[] } {
  const { tokens } = parseArgs({ args: argv, options: GLOBAL, strict: false, allowPositionals: true, tokens: true });
  const at = tokens.find((token) => token.kind !== "option" || !Object.hasOwn(GLOBAL, token.name))?.index ?? argv.length;
  for (const token of tokens.filter((token) => token.index < at)) {
    if (token.kind === "option" && GLOBAL[token.name as keyof typeof GLOBAL].type === "string" && token.value === undefined) throw new UsageError(`${token.rawName} needs a value`);
  }
  return { command: argv[at], args: [...argv.slice(at + 1), ...argv.slice(0, at)] };
}

/** An integer ≥ 1, the check of most numeric flags. */
export const isPositiveInteger = (n: number) => Number.isInteger(n) && n >= 1;

/**
 * The one parser of numeric flags: the flag's number, or `fallback` when it is not given; a value
 * that is blank or fails `check` is a usage error naming what the flag takes (then `hint`, on its own line).
 */
export function numberFlag<F extends number | undefined>(flag: string, value: string | undefined, fallback: F, check: (n: number) => boolean, what: string, hint?: string): number | F {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (value.trim() === "" || !check(parsed)) throw new UsageError(`${flag} must be ${what}, not "${value}"${hint ? `\n${hint}` : ""}`);
  return parsed;
}

type Options = NonNullable<ParseArgsConfig["options"]>;

/**
 * `util.parseArgs`, its errors made into one clear sentence each (Node's own quote the flag in a
 * form that reads like an unclosed quote, and suggest `--` where a typo is likelier). The tokens
 * are checked as strict mode checks them, then the strict parse gives the typed values.
 */
export function parseFlags<O extends Options>(command: string, args: string[], options: O, allowPositionals = false) {
  const hint = `\nRun public-hub ${command} --help for its flags.`;
  for (const token of parseArgs({ args, options, strict: false, allowPositionals: true, tokens: true }).tokens) {
    if (token.kind === "positional" && !allowPositionals) throw new UsageError(`unexpected argument "${token.value}" for ${command}${hint}`);
    if (token.kind !== "option") continue;
    const type = Object.hasOwn(options, token.name) ? options[token.name]!.type : undefined;
    const near = type ? undefined : closest(token.name, Object.keys(options));
    if (!type) throw new UsageError(`unknown flag ${token.rawName} for ${command}${near ? `; did you mean --${near}?` : ""}${hint}`);
    // A value that looks like a flag is refused, as strict mode does: `--file --dry-run` is a mistake.
    const missing = type === "string" && (token.value === undefined || (!token.inlineValue && token.value.length > 1 && token.value.startsWith("-")));
    const negative = missing && /^-\d/.test(token.value ?? "") ? ` (write a negative one as ${token.rawName}=${token.value})` : "";
    if (missing || (type === "boolean" && token.value !== undefined)) throw new UsageError(`${token.rawName} ${missing ? "needs a value" : "takes no value"}${negative}${hint}`);
  }
  return parseArgs({ args, options, strict: true, allowPositionals });
}

/** The known name nearest `typed` (at most 2 edits away), for "did you mean". */
export function closest(typed: string, names: string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = editDistance(typed, name);
    if (distance <= 2 && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}
