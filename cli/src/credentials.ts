import { readFile } from "node:fs/promises";
import type { HubProfile } from "public-hub-sdk";
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
  // How the hub speaks, as `doctor --profile` wrote it.
  profile: { type: "string" },
} as const;

export interface Connection {
  baseUrl: string;
  clientId: string;
  hub: string;
  /** The key of the hub's envelope (`--unwrap`, else `PUBLIC_HUB_UNWRAP`), the client's `unwrap` option. */
  unwrap?: string;
  /** The secret or the signing key, as the SDK takes it (`{ secret }` or `{ signingKey }`). */
  key?: KeyMaterial;
  /** Where the key material came from, to say so without showing it. */
  keySource?: string;
  /** The hub's profile (`--profile FILE`, else `PUBLIC_HUB_PROFILE`), the client's `profile` option. */
  profile?: HubProfile;
}

type Flags = { "base-url"?: string; "client-id"?: string; hub?: string; "secret-file"?: string; unwrap?: string; profile?: string | undefined };

/** A profile file, read and checked: a missing file or a bad field is a usage error naming it. */
export async function readProfile(path: string, flag = "--profile"): Promise<HubProfile> {
  const text = await readFile(path, "utf8").catch((error: unknown) => {
    throw unreadable(`${flag} ${path}`, error);
  });
  // Loaded here, not at the top: `--help` and `--version` load no package (test/cli/startup.test.ts).
  const { HubValidationError, parseHubProfile } = await import("public-hub-sdk/server");
  try {
    return parseHubProfile(JSON.parse(text));
  } catch (error) {
    const why = error instanceof HubValidationError ? error.issues.map((issue) => `${issue.path.join(".") || "(the file)"}: ${issue.message}`).join("; ") : `not JSON (${(error as Error).message})`;
    throw new UsageError(`${flag} ${path} is not a hub profile: ${why}`);
  }
}

/** The connection from flags, else `HUB_*` (and `PUBLIC_HUB_UNWRAP`) variables. The secret is read, never printed. */
export async function connection(flags: Flags, env: Record<string, string | undefined>, needKey: boolean): Promise<Connection> {
  const baseUrl = flags["base-url"] ?? env.HUB_BASE_URL;
  const clientId = flags["client-id"] ?? env.HUB_CLIENT_ID;
  const hub = flags.hub ?? env.HUB_SLUG;
  const unwrap = flags.unwrap ?? (env.PUBLIC_HUB_UNWRAP || undefined);
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
  const profilePath = flags.profile ?? (env.PUBLIC_HUB_PROFILE || undefined);
  const profile = profilePath === undefined ? undefined : await readProfile(profilePath, flags.profile === undefined ? "PUBLIC_HUB_PROFILE" : "--profile");
  return { baseUrl: baseUrl!, clientId: clientId!, hub: hub!, ...(unwrap === undefined ? {} : { unwrap }), ...(profile && { profile }), ...key };
}
