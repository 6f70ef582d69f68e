import { parseArgs } from "node:util";
import { HubClient } from "../../client/hub-client";
import { leaderboardRows } from "../../client/leaderboard-rows";
import { connection, connectionOptions } from "../credentials";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";

export const readOptions = { ...connectionOptions, limit: { type: "string" }, json: { type: "boolean" } } as const;


/** `hub`, `leaderboard`, `holder <wallet>`, `stake <wallet>`: one read, printed. */
export async function readCommand(command: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: readOptions, strict: true, allowPositionals: true });
  if (positionals.length > 0 && (command === "hub" || command === "leaderboard")) throw new UsageError(`unexpected argument "${positionals[0]}"`);
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
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new UsageError(`--limit must be a positive integer, not "${values.limit}"`);
    result = await client.getLeaderboard(limit === undefined ? {} : { limit });
    if (!values.json) {
      for (const row of leaderboardRows(result as never)) println(io.stdout, Object.values(row).map(String).join("\t"));
      return EXIT.ok;
    }
  }
  if (values.json) printJson(io.stdout, result);
  else for (const [key, value] of Object.entries(result as object)) println(io.stdout, `${key}: ${typeof value === "object" ? JSON.stringify(value) : String(value)}`);
  return EXIT.ok;
}
