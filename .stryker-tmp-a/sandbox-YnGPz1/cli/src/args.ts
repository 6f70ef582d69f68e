// @ts-nocheck
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./io";

/** Flags that apply to every command and may come before it (`public-hub --base-url … hub`). */
const GLOBAL_WITH_VALUE = new Set(["--base-url", "--client-id", "--hub", "--secret-file"]);
const GLOBAL_SWITCHES = new Set(["--json"]);

/**
 * Splits `argv` into the command and its arguments; global flags written before the command are
 * moved after it, so each command parses one list. `--flag=value` is kept whole.
 */
export function splitCommand(argv: string[]): { command: string | undefined; args: string[] } {
  const leading: string[] = [];
  let i = 0;
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    const name = arg.split("=")[0]!;
    if (GLOBAL_WITH_VALUE.has(name)) {
      leading.push(arg);
      if (!arg.includes("=")) {
        if (i + 1 >= argv.length) throw new UsageError(`${name} needs a value`);
        leading.push(argv[++i]!);
      }
    } else if (GLOBAL_SWITCHES.has(arg)) leading.push(arg);
    else break;
  }
  return { command: argv[i], args: [...argv.slice(i + 1), ...leading] };
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
 * `util.parseArgs`, with its errors made into one clear sentence: Node's own message quotes the
 * flag in a form that reads like an unclosed quote, and suggests `--` where a typo is likelier.
 */
export function parseFlags<O extends Options>(command: string, args: string[], options: O, allowPositionals = false) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    if (!String(code).startsWith("ERR_PARSE_ARGS")) throw error;
    const flag = /'(-[^'\s]*)/.exec(message)?.[1] ?? "";
    const hint = `\nRun public-hub ${command} --help for its flags.`;
    if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
      const near = closest(flag.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(`unknown flag ${flag} for ${command}${near ? `; did you mean --${near}?` : ""}${hint}`);
    }
    if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      const name = /--([\w-]+)/.exec(message)?.[1];
      const takesValue = name !== undefined && options[name]?.type === "string";
      const next = args[args.indexOf(`--${name}`) + 1];
      const negative = takesValue && next !== undefined && /^-\d/.test(next) ? ` (write a negative one as --${name}=${next})` : "";
      throw new UsageError(`${name ? `--${name}` : flag} ${takesValue ? "needs a value" : "takes no value"}${negative}${hint}`);
    }
    if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") {
      const extra = /'([^']*)'/.exec(message)?.[1];
      throw new UsageError(`unexpected argument ${extra === undefined ? "" : `"${extra}" `}for ${command}${hint}`);
    }
    throw new UsageError(`${message}${hint}`);
  }
}

/** The known name nearest `typed` (at most 2 edits away), for "did you mean". */
function closest(typed: string, names: string[]): string | undefined {
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
