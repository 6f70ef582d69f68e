import { HubClient, HubPagingError, iterateLeaderboard, leaderboardRows } from "public-hub-sdk";
import { isPositiveInteger, numberFlag, parseFlags } from "../args";
import { connection, connectionOptions } from "../credentials";
import { fields, table } from "../format";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";

const readOptions = { ...connectionOptions, unwrap: { type: "string" }, limit: { type: "string" }, all: { type: "boolean" }, "max-pages": { type: "string" }, json: { type: "boolean" } } as const;

/** `hub`, `leaderboard`, `holder <wallet>`, `stake <wallet>`: one read, printed (`--json`: the body as received). */
export async function readCommand(command: string, args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(command, args, readOptions, true);
  const wallets = command === "holder" || command === "stake" ? 1 : 0;
  if (positionals.length !== wallets) throw new UsageError(wallets ? `${command} needs one <wallet>` : `unexpected argument "${positionals[0]}" for ${command}`);
  for (const flag of ["limit", "all"] as const) if (values[flag] !== undefined && command !== "leaderboard") throw new UsageError(`--${flag} is a leaderboard flag, not one of ${command}`);
  if (values["max-pages"] !== undefined && !values.all) throw new UsageError("--max-pages goes with --all");
  const hint = "Run public-hub leaderboard --help for its flags.";
  const limit = numberFlag("--limit", values.limit, undefined, isPositiveInteger, "a positive integer", hint);
  const maxPages = numberFlag("--max-pages", values["max-pages"], undefined, (n) => Number.isSafeInteger(n) && n >= 1, "a positive integer", hint);
  const { key: _key, keySource: _source, ...options } = await connection(values, io.env, false);
  const client = new HubClient(options);
  if (values.all) return printAll(client, limit, maxPages, values.json === true, io);
  const wallet = positionals[0]!;
  const result: unknown = await (command === "hub" ? client.getHub()
    : command === "holder" ? client.getHolder(wallet)
    : command === "stake" ? client.getStakeStatus(wallet)
    : client.getLeaderboard(limit === undefined ? {} : { limit }));
  if (values.json) printJson(io.stdout, result);
  // A leaderboard whose rows it cannot find throws (a HubResponseError naming its keys): never "(no rows)" for it.
  else if (command === "leaderboard") println(io.stdout, table(leaderboardRows(result as object, client.profile) as Array<Record<string, unknown>>) || "(no rows)");
  else for (const line of fields(result)) println(io.stdout, line);
  return EXIT.ok;
}

/**
 * `leaderboard --all`: every row across the hub's pages (`--limit` rows a page), printed once all
 * are read: a list that could not be read whole (an error, `--max-pages` reached) prints none of
 * it, only the error, so that a cut list is never taken for the whole. `--json`: the rows as one array.
 */
async function printAll(client: HubClient, limit: number | undefined, maxPages: number | undefined, json: boolean, io: CliIo): Promise<number> {
  const rows: Array<Record<string, unknown>> = [];
  try {
    for await (const row of iterateLeaderboard(client, limit === undefined ? {} : { limit }, { ...(maxPages !== undefined && { maxPages }), ...(io.signal && { signal: io.signal }) })) rows.push(row as Record<string, unknown>);
  } catch (error) {
    // The SDK names its option; on a terminal, name the CLI's.
    if (error instanceof HubPagingError && error.reason === "max-pages") error.message += " (public-hub: --max-pages <n>)";
    throw error;
  }
  if (json) printJson(io.stdout, rows);
  else println(io.stdout, table(rows) || "(no rows)");
  return EXIT.ok;
}
