import { HubClient, leaderboardRows } from "public-hub-sdk";
import { isPositiveInteger, numberFlag, parseFlags } from "../args";
import { connection, connectionOptions } from "../credentials";
import { fields, table } from "../format";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";

const readOptions = { ...connectionOptions, unwrap: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } } as const;

/** `hub`, `leaderboard`, `holder <wallet>`, `stake <wallet>`: one read, printed (`--json`: the body as received). */
export async function readCommand(command: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(command, args, readOptions, true);
  const wallets = command === "holder" || command === "stake" ? 1 : 0;
  if (positionals.length !== wallets) throw new UsageError(wallets ? `${command} needs one <wallet>` : `unexpected argument "${positionals[0]}" for ${command}`);
  if (values.limit !== undefined && command !== "leaderboard") throw new UsageError(`--limit is a leaderboard flag, not one of ${command}`);
  const limit = numberFlag("--limit", values.limit, undefined, isPositiveInteger, "a positive integer", "Run public-hub leaderboard --help for its flags.");
  const { key: _key, keySource: _source, ...options } = await connection(values, io.env, false);
  const client = new HubClient(options);
  const wallet = positionals[0]!;
  const result: unknown = await (command === "hub" ? client.getHub()
    : command === "holder" ? client.getHolder(wallet)
    : command === "stake" ? client.getStakeStatus(wallet)
    : client.getLeaderboard(limit === undefined ? {} : { limit }));
  if (values.json) printJson(io.stdout, result);
  // A leaderboard whose rows it cannot find throws (a HubResponseError naming its keys): never "(no rows)" for it.
  else if (command === "leaderboard") println(io.stdout, table(leaderboardRows(result as object) as Array<Record<string, unknown>>) || "(no rows)");
  else for (const line of fields(result)) println(io.stdout, line);
  return EXIT.ok;
}
