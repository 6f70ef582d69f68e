import { createRequire } from "node:module";
import { closest, GLOBAL, splitCommand } from "./args";
import { commandHelp, COMMANDS, USAGE } from "./help";
import { EXIT, println, printJson, UsageError, type CliIo } from "./io";

export { USAGE };

/** This package's version (package.json sits one level above both src/ and dist/). */
export const VERSION = (createRequire(import.meta.url)("../package.json") as { version: string }).version;

/** Runs one command line; resolves to the exit status. Never throws. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const json = argv.includes("--json");
  try {
    const { command, args } = splitCommand(argv);
    if (command === undefined) {
      io.stderr.write(USAGE);
      return EXIT.usage;
    }
    if (command === "help" || command === "--help" || command === "-h") {
      const topic = args[0];
      io.stdout.write(topic !== undefined && Object.hasOwn(COMMANDS, topic) ? await commandHelp(topic) : USAGE);
      return EXIT.ok;
    }
    if (command === "--version" || command === "-V" || command === "version") {
      println(io.stdout, VERSION);
      return EXIT.ok;
    }
    if (!Object.hasOwn(COMMANDS, command)) {
      const flag = command.startsWith("-");
      const near = closest(command.replace(/^-+|=.*$/g, ""), [...Object.keys(flag ? GLOBAL : COMMANDS), "help", "version"]);
      const unknown = flag ? `unknown flag ${command} before the command` : `unknown command "${command}"`;
      throw new UsageError(`${unknown}${near ? `; did you mean ${flag ? "--" : ""}${near}?` : ""}`);
    }
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout.write(await commandHelp(command));
      return EXIT.ok;
    }
    return await runCommand(command, args, io);
  } catch (error) {
    // Loaded here, not above: `--version` and `--help` load no package (their time is node's own).
    const [{ HubError, HubValidationError }, { describeError }] = await Promise.all([import("public-hub-sdk"), import("./describe-error")]);
    // Bad flags and input found before anything was sent (a bad base URL, an empty wallet, a
    // journal of another hub) are the user's to fix: exit 2, as the README says.
    const usage = error instanceof UsageError || error instanceof HubValidationError;
    const described = error instanceof Error ? describeError(error) : { name: "Error", message: String(error) };
    if (json) printJson(io.stdout, { error: described });
    const hint = error instanceof UsageError && !String(described.message).includes("--help") ? "\nRun public-hub --help for usage." : "";
    println(io.stderr, `public-hub: ${String(described.message)}${hint}`);
    if (!usage && !(error instanceof HubError) && error instanceof Error) println(io.stderr, error.stack ?? "");
    return usage ? EXIT.usage : EXIT.failed;
  }
}

/** Each command's module is imported when it runs: only `mock` loads msw, only `award` the CSV parser and the bar. */
async function runCommand(command: string, args: string[], io: CliIo): Promise<number> {
  switch (command) {
    case "award":
      return (await import("./commands/award")).awardCommand(args, io);
    case "doctor":
      return (await import("./commands/doctor")).doctorCommand(args, io);
    case "sign":
      return (await import("./commands/sign")).signCommand(args, io);
    case "mock":
      return (await import("./commands/mock")).mockCommand(args, io);
    default:
      return (await import("./commands/reads")).readCommand(command, args, io);
  }
}
