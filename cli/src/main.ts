import { HubError } from "../core/errors/hub-error";
import { awardCommand } from "./commands/award";
import { doctorCommand } from "./commands/doctor";
import { readCommand } from "./commands/reads";
import { signCommand } from "./commands/sign";
import { describeError } from "./describe-error";
import { EXIT, println, printJson, UsageError, type CliIo } from "./io";

export const USAGE = `Usage: public-hub <command> [options]

Commands:
  award --file <awards.csv|awards.jsonl>  award points to many wallets
        [--concurrency 16] [--journal <file>] [--dry-run] [--format csv|jsonl] [--json]
  hub                                     the hub's public configuration
  leaderboard [--limit N]                 top stakers
  holder <wallet>                         a wallet's holdings
  stake <wallet>                          a wallet's staking status
  doctor                                  check discovery, key and hub scope, clock skew
  sign --body '<json>' [--timestamp T] [--method POST] [--path P]
                                          print the signed payload and its signature

Connection (flags override the environment):
  --base-url   HUB_BASE_URL     --client-id  HUB_CLIENT_ID     --hub  HUB_SLUG
  --secret-file <file>  or  HUB_SECRET  or  HUB_SIGNING_KEY   (never printed)

CSV files have a header: wallet,amount,reason,ref  or  wallet,kind,ref. JSON Lines: one award per line.
Exit status: 0 all applied, 1 some failed, 2 usage or invalid input (a dry run with bad rows), 130 interrupted.
`;

const COMMANDS = new Set(["award", "hub", "leaderboard", "holder", "stake", "doctor", "sign"]);

/** Runs one command line; resolves to the exit status. Never throws. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    (command === undefined ? io.stderr : io.stdout).write(USAGE);
    return command === undefined ? EXIT.usage : EXIT.ok;
  }
  const json = rest.includes("--json");
  try {
    if (!COMMANDS.has(command)) throw new UsageError(`unknown command "${command}"`);
    const name = command;
    if (rest.includes("--help") || rest.includes("-h")) return io.stdout.write(USAGE), EXIT.ok;
    if (name === "award") return await awardCommand(rest, io);
    if (name === "doctor") return await doctorCommand(rest, io);
    if (name === "sign") return await signCommand(rest, io);
    return await readCommand(name, rest, io);
  } catch (error) {
    // parseArgs reports unknown or malformed flags with ERR_PARSE_ARGS_* codes.
    const usage = error instanceof UsageError || String((error as { code?: unknown }).code).startsWith("ERR_PARSE_ARGS");
    const described = error instanceof Error ? describeError(error) : { name: "Error", message: String(error) };
    if (json) printJson(io.stdout, { error: usage ? { name: "UsageError", message: described.message } : described });
    println(io.stderr, `public-hub: ${String(described.message)}${usage ? "\nRun public-hub --help for usage." : ""}`);
    if (!usage && !(error instanceof HubError) && error instanceof Error) println(io.stderr, error.stack ?? "");
    return usage ? EXIT.usage : EXIT.failed;
  }
}
