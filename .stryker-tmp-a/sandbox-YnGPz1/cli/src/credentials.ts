// @ts-nocheck
import { readFile } from "node:fs/promises";
import type { KeyMaterial } from "public-hub-sdk/server";
import { unreadable } from "./files";
import { UsageError } from "./io";

/** Flags every command accepts, for the connection. */
export const connectionOptions = {
  "base-url": { type: "string" },
  "client-id": { type: "string" },
  hub: { type: "string" },
  // A file, not the secret itself: a flag's value shows in `ps` and in shell history.
  "secret-file": { type: "string" },
} as const;

export interface Connection {
  baseUrl: string;
  clientId: string;
  hub: string;
  /** The secret or the signing key, as the SDK takes it (`{ secret }` or `{ signingKey }`). */
  key?: KeyMaterial;
  /** Where the key material came from, to say so without showing it. */
  keySource?: string;
}

type Flags = { "base-url"?: string; "client-id"?: string; hub?: string; "secret-file"?: string };

/** The connection from flags, else `HUB_*` variables. The secret is read, never printed. */
export async function connection(flags: Flags, env: Record<string, string | undefined>, needKey: boolean): Promise<Connection> {
  const baseUrl = flags["base-url"] ?? env.HUB_BASE_URL;
  const clientId = flags["client-id"] ?? env.HUB_CLIENT_ID;
  const hub = flags.hub ?? env.HUB_SLUG;
  const missing = [!baseUrl && "HUB_BASE_URL (or --base-url)", !clientId && "HUB_CLIENT_ID (or --client-id)", !hub && "HUB_SLUG (or --hub)"].filter(Boolean);
  let key: Pick<Connection, "key" | "keySource"> = {};
  if (flags["secret-file"]) {
    const secret = (await readFile(flags["secret-file"], "utf8").catch((error: unknown) => {
      throw unreadable(`--secret-file ${flags["secret-file"]}`, error);
    })).trim();
    key = { key: { secret }, keySource: "--secret-file" };
  } else if (env.HUB_SECRET) key = { key: { secret: env.HUB_SECRET }, keySource: "HUB_SECRET" };
  else if (env.HUB_SIGNING_KEY) key = { key: { signingKey: env.HUB_SIGNING_KEY }, keySource: "HUB_SIGNING_KEY" };
  else if (needKey) missing.push("HUB_SECRET or HUB_SIGNING_KEY (or --secret-file)");
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(", ")}`);
  return { baseUrl: baseUrl!, clientId: clientId!, hub: hub!, ...key };
}
