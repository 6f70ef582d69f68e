import { parseArgs } from "node:util";
import { HubClient } from "../../client/hub-client";
import { HubApiError } from "../../core/errors/hub-api-error";
import { connection, connectionOptions } from "../credentials";
import { describeError } from "../describe-error";
import { EXIT, println, printJson, type CliIo } from "../io";

export const doctorOptions = { ...connectionOptions, json: { type: "boolean" } } as const;

interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

// Past this, signatures are refused (the server's window is ±300 s); warn well before.
const SKEW_FAIL_S = 240;
/** `public-hub doctor`: discovery, key and hub scope, clock skew against the server's `Date`. */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: doctorOptions, strict: true });
  const conn = await connection(values, io.env, false);
  const checks: Check[] = [];
  // Every answer's Date, against the middle of the request on this machine.
  const offsets: number[] = [];
  const timedFetch: typeof fetch = async (input, init) => {
    const sent = Date.now();
    const response = await fetch(input, init);
    const date = Date.parse(response.headers.get("date") ?? "");
    if (!Number.isNaN(date)) offsets.push(date + 500 - (sent + Date.now()) / 2); // Date has whole seconds
    return response;
  };
  const client = new HubClient({ baseUrl: conn.baseUrl, clientId: conn.clientId, hub: conn.hub, fetch: timedFetch, retry: 0 });
  const failed = (error: unknown) => {
    const { name, message } = describeError(error as Error);
    return `${String(name)}: ${String(message)}`;
  };

  checks.push({ name: "credentials", ok: true, detail: `base URL ${client.baseUrl}, client id ${conn.clientId}, hub ${conn.hub}, key ${conn.keySource ? `from ${conn.keySource} (not shown)` : "not set: awards and sign need HUB_SECRET or HUB_SIGNING_KEY"}` });
  try {
    const doc = (await client.discover()) as Record<string, unknown>;
    checks.push({ name: "discovery", ok: true, detail: `${String(doc.name ?? "API")} ${String(doc.version ?? "")}`.trim() });
  } catch (error) {
    checks.push({ name: "discovery", ok: false, detail: failed(error) });
  }
  try {
    await client.getHub();
    checks.push({ name: "key and hub scope", ok: true, detail: `key ${conn.clientId} reads hub ${conn.hub}` });
  } catch (error) {
    const status = error instanceof HubApiError ? error.status : 0;
    const why = { 401: "the key is unknown or missing", 403: `the key is scoped to another hub than ${conn.hub}`, 404: `there is no hub ${conn.hub}` }[status];
    checks.push({ name: "key and hub scope", ok: false, detail: why ? `${why} (${failed(error)})` : failed(error) });
  }
  if (offsets.length === 0) {
    checks.push({ name: "clock skew", ok: false, detail: "the server sent no Date header: skew cannot be measured" });
  } else {
    const skew = offsets.reduce((a, b) => a + b, 0) / offsets.length / 1000;
    checks.push({ name: "clock skew", ok: Math.abs(skew) < SKEW_FAIL_S, detail: `server clock ${skew >= 0 ? "+" : ""}${skew.toFixed(1)} s from this machine (±1 s; signatures need ±300 s, and the SDK corrects from Date)` });
  }
  const ok = checks.every((check) => check.ok);
  if (values.json) printJson(io.stdout, { ok, checks });
  else for (const check of checks) println(io.stdout, `${check.ok ? "✓" : "✗"} ${check.name}: ${check.detail}`);
  return ok ? EXIT.ok : EXIT.failed;
}
