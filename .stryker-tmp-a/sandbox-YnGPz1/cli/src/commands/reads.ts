// @ts-nocheck
import { HubClient, leaderboardRows } from "public-hub-sdk";
import { isPositiveInteger, numberFlag, parseFlags } from "../args";
import { connection, connectionOptions } from "../credentials";
import { fields, table } from "../format";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";

export const readOptions = { ...connectionOptions, limit: { type: "string" }, json: { type: "boolean" } } as const;

/** `hub`, `leaderboard`, `holder <wallet>`, `stake <wallet>`: one read, printed (`--json`: the body as received). */
export async function readCommand(command: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(command, args, readOptions, true);
  if (positionals.length > 0 && (command === "hub" || command === "leaderboard")) throw new UsageError(`unexpected argument "${positionals[0]}" for ${command}`);
  if (values.limit !== undefined && command !== "leaderboard") throw new UsageError(`--limit is a leaderboard flag, not one of ${command}`);
  const conn = await connection(values, io.env, false);
  const client = new HubClient({ baseUrl: conn.baseUrl, clientId: conn.clientId, hub: conn.hub });
  const wallet = () => {
    if (positionals.length !== 1) throw new UsageError(`${command} needs one <wallet>`);
    return positionals[0]!;
  };
  let result: unknown;
  if (command === "hub") result = await client.getHub();
  else if (command === "holder") result = await client.getHolder(wallet());
  else if (command === "stake") result = await client.getStakeStatus(wallet());
  else {
    const limit = numberFlag("--limit", values.limit, undefined, isPositiveInteger, "a positive integer", "Run public-hub leaderboard --help for its flags.");
    result = await client.getLeaderboard(limit === undefined ? {} : { limit });
    if (!values.json) {
      const rows = leaderboardRows(result as never) as Array<Record<string, unknown>>;
      println(io.stdout, rows.length > 0 ? table(rows) : "(no rows)");
      return EXIT.ok;
    }
  }
  if (values.json) printJson(io.stdout, result);
  else for (const line of fields(result)) println(io.stdout, line);
  return EXIT.ok;
}
