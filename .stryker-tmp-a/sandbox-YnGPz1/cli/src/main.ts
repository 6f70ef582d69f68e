// @ts-nocheck
import { createRequire } from "node:module";
import { HubError, HubValidationError } from "public-hub-sdk";
import { splitCommand } from "./args";
import { awardCommand } from "./commands/award";
import { doctorCommand } from "./commands/doctor";
import { mockCommand } from "./commands/mock";
import { readCommand } from "./commands/reads";
import { signCommand } from "./commands/sign";
import { describeError } from "./describe-error";
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
      io.stdout.write(topic !== undefined && topic in COMMANDS ? commandHelp(topic) : USAGE);
      return EXIT.ok;
    }
    if (command === "--version" || command === "-V" || command === "version") {
      println(io.stdout, VERSION);
      return EXIT.ok;
    }
    if (!(command in COMMANDS)) {
      throw new UsageError(command.startsWith("-") ? `unknown flag ${command} before the command` : `unknown command "${command}"`);
    }
    if (args.includes("--help") || args.includes("-h")) {
      io.stdout.write(commandHelp(command));
      return EXIT.ok;
    }
    if (command === "award") return await awardCommand(args, io);
    if (command === "doctor") return await doctorCommand(args, io);
    if (command === "sign") return await signCommand(args, io);
    if (command === "mock") return await mockCommand(args, io);
    return await readCommand(command, args, io);
  } catch (error) {
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
