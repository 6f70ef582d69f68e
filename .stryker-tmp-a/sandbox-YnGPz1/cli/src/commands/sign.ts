// @ts-nocheck
import { HubClient } from "public-hub-sdk";
import { awardPath, signingPayload, signRequest } from "public-hub-sdk/server";
import { parseFlags } from "../args";
import { connection, connectionOptions } from "../credentials";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";

export const signOptions = {
  ...connectionOptions,
  body: { type: "string" },
  timestamp: { type: "string" },
  method: { type: "string" },
  path: { type: "string" },
  json: { type: "boolean" },
} as const;

/**
 * `public-hub sign --body '<json>'`: the exact string that is signed and its signature, to compare
 * with what a server expects when it answers 401. The key itself is never printed.
 */
export async function signCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags("sign", args, signOptions);
  if (values.body === undefined) throw new UsageError(`sign needs --body '<the exact JSON body>'`);
  const conn = await connection(values, io.env, true);
  const timestamp = values.timestamp ?? String(Math.floor(Date.now() / 1000));
  if (!/^\d+$/.test(timestamp)) throw new UsageError(`--timestamp must be Unix seconds, not "${timestamp}"`);
  const method = (values.method ?? "POST").toUpperCase();
  // The client normalizes the base URL (and refuses a bad one) as it would for a real request.
  const { baseUrl } = new HubClient({ baseUrl: conn.baseUrl, clientId: conn.clientId, hub: conn.hub });
  const path = values.path ?? awardPath({ baseUrl, hub: conn.hub });
  const signature = await signRequest({ ...conn.key!, timestamp, method, path, body: values.body });
  const payload = signingPayload({ timestamp, method, path, body: values.body });
  if (values.json) {
    printJson(io.stdout, { payload, signature, headers: { "x-api-key": conn.clientId, "x-api-timestamp": timestamp, "x-api-signature": signature } });
  } else {
    println(io.stdout, `payload (timestamp.METHOD.path.body, signed as UTF-8):\n${payload}\n`);
    println(io.stdout, `x-api-key: ${conn.clientId}\nx-api-timestamp: ${timestamp}\nx-api-signature: ${signature}`);
    println(io.stdout, `\nkey: ${conn.keySource} (not shown); HMAC-SHA256 keyed with the hex SHA-256 of the secret`);
  }
  return EXIT.ok;
}
