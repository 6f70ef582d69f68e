import { randomBytes } from "node:crypto";
import { writeFile } from "node:fs/promises";
import { errorFields, HubApiError, HubClient, HubConnectionError, HubTimeoutError } from "public-hub-sdk";
import { awardPath, clockOffsetOf, refusalKind, SIGNATURE_WINDOW_SECONDS, signRequest, type KeyMaterial, type RefusalKind } from "public-hub-sdk/server";
import { parseFlags } from "../args";
import { connection, connectionOptions, type Connection } from "../credentials";
import { describeError } from "../describe-error";
import { EXIT, println, printJson, UsageError, type CliIo } from "../io";
import { probeProfile } from "../profile-probe";

// `--profile` is doctor's output here: the file it writes, never one it reads.
const doctorOptions = { ...connectionOptions, unwrap: { type: "string" }, json: { type: "boolean" }, "probe-wallet": { type: "string" } } as const;

/** `ok` and `failed` were checked; `not checked` says why not; `info` is what was given. */
export type CheckStatus = "ok" | "failed" | "not checked" | "info";

export type Check = { name: string; status: CheckStatus; detail: string };

const SYMBOL: Record<CheckStatus, string> = { ok: "✓", failed: "✗", "not checked": "–", info: "·" };
// Past the window, signatures are refused; warn well before.
const SKEW_FAIL_S = SIGNATURE_WINDOW_SECONDS * 0.8;
// No wallet, no amount, no kind: no server can credit anyone with it, whatever it checks first.
const PROBE_BODY = JSON.stringify({ ref: "public-hub-doctor-probe" });

const line = (error: unknown) => {
  const { name, message } = describeError(error as Error);
  return `${String(name)}: ${String(message)}`;
};
const statusOf = (error: unknown) => (error instanceof HubApiError ? error.status : undefined);

/**
 * Every check `doctor` can make without awarding anything, each marked for what it proved. Used by
 * `award --dry-run --check` too.
 */
export async function runChecks(conn: Connection): Promise<Check[]> {
  const checks: Check[] = [];
  // Every fresh answer's Date, measured as the SDK measures it.
  const offsets: number[] = [];
  let answered = false;
  const timedFetch: typeof fetch = async (input, init) => {
    // A redirect is not followed (the SDK's client follows none to another origin; the signed probes none at all).
    const response = await fetch(input, { ...init, redirect: "manual" });
    answered = true;
    const offset = clockOffsetOf(response.headers);
    if (offset !== undefined) offsets.push(offset);
    return response;
  };
  const { key: _key, keySource: _source, ...options } = conn;
  const client = new HubClient({ ...options, fetch: timedFetch, retry: 0 });
  checks.push({
    name: "settings",
    status: "info",
    detail: `base URL ${client.baseUrl}, client id ${conn.clientId}, hub ${conn.hub}, key ${conn.keySource ? `from ${conn.keySource} (not shown)` : "not set"}`,
  });

  let routeMissing = false;
  try {
    const doc = (await client.discover()) as Record<string, unknown>;
    checks.push({ name: "discovery", status: "ok", detail: `${String(doc.name ?? "an API")} ${String(doc.version ?? "")} answers at ${client.baseUrl}`.replace("  ", " ") });
  } catch (error) {
    routeMissing = statusOf(error) === 404;
    const detail =
      error instanceof HubConnectionError && error.code === "ERR_SSL_WRONG_VERSION_NUMBER"
        ? `the server answers plain HTTP, not TLS: use ${client.baseUrl.replace(/^https:/, "http:")} (${line(error)})`
        : error instanceof HubConnectionError || error instanceof HubTimeoutError
        ? `the server did not answer (${line(error)})`
        : routeMissing
          ? `nothing at ${client.baseUrl} (404 no such route): the path prefix looks wrong; the API's is /api/v1`
          : line(error);
    checks.push({ name: "discovery", status: "failed", detail });
  }

  let scopeOk = false;
  if (!answered) {
    checks.push({ name: "key and hub scope", status: "not checked", detail: "the server did not answer" });
  } else {
    try {
      await client.getHub();
      scopeOk = true;
      checks.push({ name: "key and hub scope", status: "ok", detail: `key ${conn.clientId} reads hub ${conn.hub}` });
    } catch (error) {
      const status = statusOf(error);
      const why =
        status === 401 ? "the key is unknown or missing"
        : status === 403 ? `the key is scoped to another hub than ${conn.hub}`
        : status === 404 && routeMissing ? "no such route either: the base URL's path prefix is wrong, so whether the hub exists is unknown"
        : status === 404 ? `the API answers, but there is no hub ${conn.hub}`
        : undefined;
      checks.push({ name: "key and hub scope", status: "failed", detail: why ? `${why} (${line(error)})` : line(error) });
    }
  }

  const skewMs = offsets.length > 0 ? offsets.reduce((a, b) => a + b, 0) / offsets.length : undefined;
  checks.push(await checkSecret(conn, client.baseUrl, timedFetch, { answered, scopeOk, skewMs }));

  if (!answered) checks.push({ name: "clock skew", status: "not checked", detail: "the server did not answer" });
  else if (skewMs === undefined) {
    checks.push({ name: "clock skew", status: "not checked", detail: "the server answered without a Date header: the skew cannot be measured, and the SDK cannot correct it" });
  } else {
    const skew = skewMs / 1000;
    const measured = `server clock ${skew >= 0 ? "+" : ""}${skew.toFixed(1)} s from this machine (±1 s)`;
    // The server sends Date, so the SDK signs in server time: a skew is what it corrects, not a fault.
    checks.push({
      name: "clock skew",
      status: "ok",
      detail:
        Math.abs(skew) < SKEW_FAIL_S
          ? `${measured}; signatures need ±${SIGNATURE_WINDOW_SECONDS} s, and the SDK corrects from Date`
          : `${measured}: beyond the ±${SIGNATURE_WINDOW_SECONDS} s signatures allow, but the server sends Date, so the SDK signs in server time (learned from the first answer; a first write may be re-sent once, corrected). Fix this machine's clock (NTP) all the same`,
    });
  }
  return checks;
}

/**
 * The secret, tested as far as the API allows without awarding anything: two signed writes whose
 * body names no wallet and no amount, so no server can apply them. One is signed with a random key,
 * one with the secret. A server that refuses the first for its signature and the second only for
 * its body has accepted the secret. A server that judges the body first refuses both with 400:
 * then the secret was not checked, and doctor says so.
 */
async function checkSecret(
  conn: Connection,
  baseUrl: string,
  timedFetch: typeof fetch,
  { answered, scopeOk, skewMs }: { answered: boolean; scopeOk: boolean; skewMs: number | undefined },
): Promise<Check> {
  const name = "secret";
  if (!conn.keySource) return { name, status: "not checked", detail: "no key given (HUB_SECRET, HUB_SIGNING_KEY or --secret-file); awards and sign need one" };
  if (!answered) return { name, status: "not checked", detail: "the server did not answer" };
  if (!scopeOk) return { name, status: "not checked", detail: "the key or the hub failed above; a signed write would be refused for that first" };
  const path = awardPath({ baseUrl, hub: conn.hub });
  const url = new URL(path, baseUrl).href;
  const probe = async (key: KeyMaterial) => {
    const timestamp = String(Math.floor((Date.now() + (skewMs ?? 0)) / 1000));
    const signature = await signRequest({ ...key, timestamp, method: "POST", path, body: PROBE_BODY });
    const response = await timedFetch(url, {
      method: "POST",
      headers: { "x-api-key": conn.clientId, "x-api-timestamp": timestamp, "x-api-signature": signature, "content-type": "application/json" },
      body: PROBE_BODY,
    });
    // Not JSON: the text itself, as the SDK keeps it.
    const { code, message } = errorFields(await response.clone().json().catch(() => response.text()));
    return { status: response.status, kind: refusalKind({ status: response.status, code, message }), said: `${response.status}${code ? ` ${code}` : ""}` };
  };
  let forged: Awaited<ReturnType<typeof probe>>;
  let real: Awaited<ReturnType<typeof probe>>;
  try {
    forged = await probe({ signingKey: randomBytes(32).toString("hex") });
    real = await probe(conn.key!);
  } catch (error) {
    return { name, status: "failed", detail: `the probe got no answer (${line(error)})` };
  }
  // The key's scope passed above: a write refused now is refused for its signature (the SDK's one classification).
  const refused = (kind: RefusalKind | undefined) => kind === "key" || kind === "credentials" || kind === "scope";
  const what = `probes: a write signed with a random key got ${forged.said}, one signed with ${conn.keySource} got ${real.said}; neither names a wallet, so nothing was applied`;
  if (refused(real.kind)) {
    return { name, status: "failed", detail: `the server refused the signature made with ${conn.keySource}: it does not belong to key ${conn.clientId} (or the server is not on the clock this machine measured). ${what}` };
  }
  if (real.kind === "request" && refused(forged.kind)) {
    return { name, status: "ok", detail: `the server accepted the signature and refused only the body. Proves: the secret matches key ${conn.clientId}. Does not prove: that a real award would be valid. ${what}` };
  }
  if (real.kind === "request" && forged.kind === "request") {
    return { name, status: "not checked", detail: `the server judges the body before the signature, so a write that cannot be applied cannot test the secret; only a real award would. ${what}` };
  }
  if (real.status >= 200 && real.status < 300) {
    return { name, status: "failed", detail: `the server accepted a write with no wallet and no amount (${real.said}): the signature passed, but check what it recorded. ${what}` };
  }
  return { name, status: "failed", detail: `unexpected answers. ${what}` };
}

/** Checks as lines: ✓ checked and fine, ✗ checked and wrong, – not checked (and why), · given. */
export function printChecks(io: CliIo, checks: Check[], count = true): void {
  for (const check of checks) println(io.stdout, `${SYMBOL[check.status]} ${check.name}: ${check.detail}`);
  const total = (status: CheckStatus) => checks.filter((check) => check.status === status).length;
  if (count) println(io.stdout, `doctor: ${total("ok")} passed, ${total("failed")} failed, ${total("not checked")} not checked`);
}

/**
 * `public-hub doctor`: everything that can be checked without awarding; ✓ only for what was. With
 * `--profile FILE`, then how the hub speaks, written there (`--probe-wallet` adds one real award).
 */
export async function doctorCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseFlags("doctor", args, doctorOptions);
  const { profile: file, "probe-wallet": wallet } = values;
  if (wallet !== undefined && (file === undefined || wallet.trim() === "")) throw new UsageError("--probe-wallet needs a wallet and --profile FILE: it probes how the hub answers awards, for the profile");
  // Neither --profile nor PUBLIC_HUB_PROFILE is read: doctor learns the profile, it does not assume one.
  const conn = await connection({ ...values, profile: undefined }, { ...io.env, PUBLIC_HUB_PROFILE: undefined }, wallet !== undefined);
  const checks = await runChecks(conn);
  const ok = checks.every((check) => check.status !== "failed");
  if (file === undefined || !ok) {
    if (values.json) printJson(io.stdout, { ok, checks });
    else printChecks(io, checks);
    if (file !== undefined && !values.json) println(io.stdout, `✗ profile: not written to ${file}: fix what failed above, then run doctor --profile again`);
    return ok ? EXIT.ok : EXIT.failed;
  }
  const { profile, learned } = await probeProfile(conn, wallet);
  await writeFile(file, `${JSON.stringify(profile, null, 2)}\n`).catch((error: unknown) => {
    throw new UsageError(`cannot write --profile ${file}: ${(error as Error).message}`);
  });
  if (values.json) printJson(io.stdout, { ok, checks, profile, learned, file });
  else {
    printChecks(io, checks);
    println(io.stdout, `profile of hub ${conn.hub}, written to ${file} (✓ shown by an answer, – not learned: kept in its notes):`);
    printChecks(io, learned, false);
  }
  return EXIT.ok;
}
