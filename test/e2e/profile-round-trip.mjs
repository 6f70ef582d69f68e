// The hub-profile round trip (`npm run e2e:profile`): for each of three hubs written on real npm
// frameworks (test/e2e/framework-hubs: express 5, Fastify 5, NestJS 11, each in its own dialect),
//   1. `public-hub doctor --profile FILE --probe-wallet 0xprobe` probes the live hub and writes its profile;
//   2. `public-hub mock --profile FILE --seed SEED --port 0` serves a mock that speaks it, seeded with
//      the same hubs, key and secret;
//   3. one scripted set of calls, through the built SDK (dist/) with `profile` given to the clients,
//      runs against each of the two and records what it observes as plain values;
// then prints a table per hub and fails on any observation that differs between the real hub and
// its mock. Each hub's ledger (GET /__ledger; the mock's GET /_mock/ledger) must show each award
// credited exactly once. `node test/e2e/profile-round-trip.mjs [express|fastify|nestjs]…`: it runs
// test/e2e/framework-hubs/install.sh first (a no-op once installed), and builds dist/ and cli/dist/
// when missing or older than src/ or cli/src/ (`--no-build` skips that). A profile does not declare
// row fields, a hub's config or the codes of key and scope refusals: the hubs' rows and config are
// seeded alike (rank, wallet, staked), and those refusals are compared by class and status only.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CLIENT_ID, mockSeed, OTHER_SLUG, SECRET, SLUG } from "./framework-hubs/common.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const cliBin = join(repo, "cli/dist/index.js");
const HUBS = ["express", "fastify", "nestjs"];
const args = process.argv.slice(2);
const noBuild = args.includes("--no-build");
const wanted = args.filter((arg) => !arg.startsWith("--"));
const unknown = wanted.filter((name) => !HUBS.includes(name));
if (unknown.length > 0) {
  console.error(`unknown hub(s): ${unknown.join(", ")}; known: ${HUBS.join(", ")}`);
  process.exit(2);
}
const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs a command; resolves with its exit code and output (never rejects on a non-zero exit). */
function run(command, commandArgs, { env = {}, cwd = repo, timeoutMs = 120_000 } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, { cwd, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal, stdout, stderr });
    });
  });
}

// ---- the frameworks (a no-op once installed: `npm run e2e` reaches here without the script's install).
const install = await run("bash", [join(repo, "test/e2e/framework-hubs/install.sh")], { timeoutMs: 600_000 });
if (install.code !== 0) {
  console.error(`test/e2e/framework-hubs/install.sh failed (exit ${install.code}):\n${install.stdout}\n${install.stderr}`);
  process.exit(1);
}

// ---- the built SDK and CLI, rebuilt when missing or older than their sources.
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((latest, entry) => Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs), 0);
const builtAt = (file) => (existsSync(file) ? statSync(file).mtimeMs : 0);
if (!noBuild) {
  const stale = Math.min(builtAt(join(repo, "dist/index.js")), builtAt(join(repo, "dist/server/index.js")), builtAt(cliBin)) < Math.max(newest(join(repo, "src")), newest(join(repo, "cli/src")));
  if (stale) {
    console.log("building dist/ and cli/dist/ (npm run build): missing or older than src/");
    const build = await run("npm", ["run", "build"], { timeoutMs: 600_000 });
    if (build.code !== 0) {
      console.error(`npm run build failed (exit ${build.code}):\n${build.stdout}\n${build.stderr}`);
      process.exit(1);
    }
  }
}
const sdk = await import(pathToFileURL(join(repo, "dist/server/index.js")).href);
const { HubClient, HubServerClient, iterateLeaderboard, leaderboardRows, signRequest } = sdk;

// ---- the scripted calls, and what they observe.
const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const statusClass = (status) => `${String(status)[0]}xx`;
const keysOf = (value) => (isObject(value) ? Object.keys(value).sort().join(",") : Array.isArray(value) ? "(an array)" : typeof value);
/** An error as plain values: its class, status, code and the paths of the fields it names. */
const errorView = (error) =>
  error?.name === undefined
    ? `not an Error: ${String(error)}`
    : [error.name, error.status ?? "", error.code ?? "(no code)", ...(error.issues?.length ? [`issues ${error.issues.map((issue) => issue.path.join(".") || "(root)").join("|")}`] : [])].join(" ");
/** A call's outcome: the data view when it resolves, the error view when it throws. */
async function outcome(call, view, showError = errorView) {
  try {
    return view(await call());
  } catch (error) {
    return `threw ${showError(error)}`;
  }
}
/** Only an error's class and status: a key's or a scope's refusal, whose code no profile declares (each hub names its own). */
const classOnly = (error) => (error?.name === undefined ? `not an Error: ${String(error)}` : `${error.name} ${error.status ?? ""}`.trim());
/** Which rate-limit fields an answer carries, and what its reset holds, named as a profile names them. */
function rateLimitFields(headers) {
  const structured = headers.get("ratelimit");
  const family =
    structured !== null ? (/(^|,)\s*limit=/.test(structured) ? "ietf-draft7" : "ietf")
    : headers.has("ratelimit-remaining") ? "ietf-legacy"
    : headers.has("x-ratelimit-remaining") ? "x-ratelimit"
    : "none";
  if (family === "none") return family;
  const reset = Number(/(?:^|[;,])\s*(?:t|reset)=(\d+)/.exec(structured ?? "")?.[1] ?? headers.get("ratelimit-reset") ?? headers.get("x-ratelimit-reset"));
  return `${family}, reset ${!Number.isFinite(reset) ? "unreadable" : reset >= 1e12 ? "epoch-ms" : reset >= 1e9 ? "epoch-seconds" : "seconds"}`;
}

/**
 * The whole leaderboard, `limit` rows at a time: with the SDK's `iterateLeaderboard` (which pages
 * as the client's profile says), its requests counted; in a build without it, a raw walk that
 * follows the profile's `leaderboard.pages` the same way.
 */
async function walkLeaderboard(options, limit) {
  if (typeof iterateLeaderboard !== "function") return rawWalk(options.baseUrl, options.profile, limit);
  let pages = 0;
  const counting = (url, init) => (new URL(url).pathname.endsWith("/leaderboard") && pages++, fetch(url, init));
  const ranks = [];
  for await (const row of iterateLeaderboard(new HubClient({ ...options, fetch: counting }), { limit }, { maxPages: 10 })) ranks.push(row.rank);
  return `${pages} page(s), ranks ${ranks.join(",")}`;
}

/** The walk of {@link walkLeaderboard} without the SDK's paging: Relay's `pageInfo`/`after`, `next_cursor`/`cursor`, `page`/`pages`, `Link: rel="next"`, or one page. */
async function rawWalk(baseUrl, profile, limit) {
  const paging = profile?.leaderboard?.pages ?? "none";
  let url = new URL(`${baseUrl}/hub/${SLUG}/leaderboard`);
  url.searchParams.set("limit", String(limit));
  const ranks = [];
  let pages = 0;
  while (url && pages < 10) {
    const response = await fetch(url, { headers: { "x-api-key": CLIENT_ID } });
    if (!response.ok) return `page ${pages + 1}: ${response.status}`;
    const body = await response.json();
    pages++;
    const payload = profile?.envelope !== undefined && isObject(body) && profile.envelope in body ? body[profile.envelope] : body;
    ranks.push(...leaderboardRows(payload, profile).map((row) => row.rank));
    const next = (param, value) => {
      const to = new URL(url);
      to.searchParams.set(param, String(value));
      return to;
    };
    if (paging === "cursor") url = payload.next_cursor ? next("cursor", payload.next_cursor) : undefined;
    else if (paging === "relay") url = payload.pageInfo?.hasNextPage ? next("after", payload.pageInfo.endCursor) : undefined;
    else if (paging === "page") url = Number(payload.page) < Number(payload.pages) ? next("page", Number(payload.page) + 1) : undefined;
    else if (paging === "link") {
      const link = /<([^>]+)>\s*;\s*rel="?next"?/.exec(response.headers.get("link") ?? "");
      url = link ? new URL(link[1], url) : undefined;
    } else url = undefined;
  }
  return `${pages} page(s), ranks ${ranks.join(",")}`;
}

/** A `fetch` that sends `body` instead of the client's, signed right (with the client's timestamp): an award the SDK would refuse to send. */
const sendingInstead = (body) => async (url, init) => {
  const headers = new Headers(init.headers);
  const path = new URL(url).pathname;
  headers.set("x-api-signature", await signRequest({ secret: SECRET, timestamp: headers.get("x-api-timestamp"), method: "POST", path, body }));
  return fetch(url, { ...init, headers, body });
};

/** The one scripted set of calls; `refs` names the awards it sends. */
async function observe(baseUrl, profile, refs) {
  const options = { baseUrl, clientId: CLIENT_ID, hub: SLUG, profile, retry: 0 };
  const reader = new HubClient(options);
  const writer = new HubServerClient({ ...options, secret: SECRET });
  const seen = {};

  const hub = await reader.getHub().withResponse();
  seen["getHub: status"] = statusClass(hub.response.status);
  seen["getHub: fields"] = keysOf(hub.data);
  seen["getHub: request id present"] = hub.requestId !== undefined;
  seen["rate-limit fields on answers"] = rateLimitFields(hub.response.headers);

  seen["getLeaderboard({ limit: 2 }): rows"] = await outcome(
    () => reader.getLeaderboard({ limit: 2 }),
    (board) => {
      const rows = leaderboardRows(board, profile);
      return `${rows.length} row(s), keys ${keysOf(rows[0])}, ranks ${rows.map((row) => row.rank).join(",")}`;
    },
  );
  seen["iterateLeaderboard({ limit: 2 })"] = await walkLeaderboard(options, 2).catch((error) => `threw ${errorView(error)}`);
  seen["getHolder(unknown wallet)"] = await outcome(() => reader.getHolder("0x000000000000000000000000000000000000dead").withResponse(), ({ response, data }) => `${statusClass(response.status)}, fields ${keysOf(data)}`);
  seen["getStakeStatus(staker)"] = await outcome(() => reader.getStakeStatus("0x2222222222222222222222222222222222222222"), (data) => `fields ${keysOf(data)}, rank ${data.rank}`);

  const award = { wallet: "0x00000000000000000000000000000000000000a1", amount: 10, reason: "round trip", ref: refs.fresh };
  const awarded = (result) => `${result.response.status}, duplicate ${result.duplicate}`;
  seen["award (fresh)"] = await outcome(() => writer.awardPoints(award).withResponse(), awarded);
  seen["award again (same ref and parameters)"] = await outcome(() => writer.awardPoints(award).withResponse(), awarded);
  seen["award, same ref, other amount"] = await outcome(() => writer.awardPoints({ ...award, amount: 11 }).withResponse(), awarded);
  let conflictRequestId;
  await writer.awardPoints({ ...award, amount: 11 }).catch((error) => (conflictRequestId = error.requestId));
  seen["request id present on an error"] = conflictRequestId !== undefined;

  const invalid = JSON.stringify({ wallet: award.wallet, amount: -5, reason: "round trip", ref: refs.invalid });
  const raw = new HubServerClient({ ...options, secret: SECRET, fetch: sendingInstead(invalid) });
  seen["invalid award (amount -5), signed"] = await outcome(() => raw.awardPoints({ ...award, ref: refs.invalid }).withResponse(), awarded);
  const forged = new HubServerClient({ ...options, secret: "not-the-secret" });
  seen["award signed with a wrong secret"] = await outcome(() => forged.awardPoints({ ...award, ref: refs.forged }).withResponse(), awarded, classOnly);

  const resolved = (data) => `resolved ${keysOf(data)}`;
  seen["getHub of an unknown hub"] = await outcome(() => new HubClient({ ...options, hub: "no-such-hub" }).getHub(), resolved, classOnly);
  seen["getHub of another hub (key scoped to alpha)"] = await outcome(() => new HubClient({ ...options, hub: OTHER_SLUG }).getHub(), resolved, classOnly);
  seen["getHolder with an unknown key"] = await outcome(() => new HubClient({ ...options, clientId: "pk_unknown" }).getHolder(award.wallet), resolved, classOnly);
  return seen;
}

/** Each award of the script credited as it should be: the fresh one once, the refused ones never. */
function checkLedger(ledger, refs) {
  const count = (ref) => ledger.filter((entry) => entry.ref === ref).length;
  const fresh = ledger.filter((entry) => entry.ref === refs.fresh);
  const problems = [];
  if (fresh.length !== 1) problems.push(`${refs.fresh} credited ${fresh.length} times`);
  else if (fresh[0].amount !== 10) problems.push(`${refs.fresh} credited ${fresh[0].amount}, not 10`);
  for (const ref of [refs.invalid, refs.forged]) if (count(ref) !== 0) problems.push(`${ref} credited ${count(ref)} times`);
  return problems;
}

/** `public-hub mock …` in the background; resolves once it listens, with its origin and a stop. */
async function startMock(mockArgs) {
  const child = spawn(process.execPath, [cliBin, "mock", ...mockArgs], { cwd: repo, env: { ...process.env, NO_COLOR: "1" } });
  let stdout = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const origin = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the mock did not start within 30 s:\n${stdout}${stderr}`)), 30_000);
    child.stdout.on("data", (chunk) => {
      stdout += chunk;
      const match = /listening on (http:\/\/\S+?)\/api\/v1/.exec(stdout);
      if (match) clearTimeout(timer), resolve(match[1]);
    });
    child.on("close", (code) => clearTimeout(timer) || reject(new Error(`the mock exited (${code}) before listening:\n${stdout}${stderr}`)));
  });
  const closed = new Promise((resolve) => child.on("close", resolve));
  return { origin, stop: () => (child.kill("SIGTERM"), closed), output: () => stdout + stderr };
}

function printTable(name, real, mock) {
  const rows = Object.keys({ ...real, ...mock }).map((key) => {
    const a = JSON.stringify(real[key]);
    const b = JSON.stringify(mock[key]);
    return { key, real: String(real[key]), mock: String(mock[key]), same: a === b };
  });
  const width = (column, title) => Math.max(title.length, ...rows.map((row) => row[column].length));
  const [k, r, m] = [width("key", "observation"), width("real", `${name} (real)`), width("mock", "mock from its profile")];
  console.log(`  ${"observation".padEnd(k)}  ${`${name} (real)`.padEnd(r)}  ${"mock from its profile".padEnd(m)}`);
  console.log(`  ${"-".repeat(k)}  ${"-".repeat(r)}  ${"-".repeat(m)}`);
  for (const row of rows) console.log(`${row.same ? " " : "✗"} ${row.key.padEnd(k)}  ${row.real.padEnd(r)}  ${row.same ? "=" : row.mock}`);
  return rows.filter((row) => !row.same);
}

// ---- each hub: doctor, mock, the script against both.
const work = mkdtempSync(join(tmpdir(), "public-hub-profile-round-trip-"));
const seedFile = join(work, "seed.json");
writeFileSync(seedFile, JSON.stringify(mockSeed(), null, 2));
const results = [];
for (const name of HUBS.filter((hub) => wanted.length === 0 || wanted.includes(hub))) {
  const hubStarted = performance.now();
  console.log(`\n=== ${name} (test/e2e/framework-hubs/${name}.mjs)`);
  const failures = [];
  let hub;
  let mock;
  try {
    const { start } = await import(pathToFileURL(join(repo, `test/e2e/framework-hubs/${name}.mjs`)).href);
    hub = await start({ port: 0 });
    const profileFile = join(work, `${name}.json`);
    const doctor = await run(process.execPath, [cliBin, "doctor", "--profile", profileFile, "--probe-wallet", "0xprobe"], {
      env: { HUB_BASE_URL: hub.url, HUB_CLIENT_ID: CLIENT_ID, HUB_SLUG: SLUG, HUB_SECRET: SECRET },
    });
    console.log(`doctor (exit ${doctor.code}):\n${`${doctor.stdout}${doctor.stderr}`.trimEnd().replace(/^/gm, "  | ")}`);
    if (!existsSync(profileFile)) throw new Error(`doctor wrote no profile at ${profileFile}`);
    const profile = JSON.parse(readFileSync(profileFile, "utf8"));
    console.log(`profile doctor wrote:\n${JSON.stringify(profile, null, 2).replace(/^/gm, "  ")}`);

    // A profile says how a limit is announced, not the limit: the mock gets one (per second) the
    // script never reaches, as the hubs' (600 a minute), so that it announces it at all.
    mock = await startMock(["--profile", profileFile, "--seed", seedFile, "--rate-limit", "1000", "--port", "0", "--quiet"]);
    const refs = { fresh: `rt-${name}-1`, invalid: `rt-${name}-invalid`, forged: `rt-${name}-forged` };
    const real = await observe(hub.url, profile, refs);
    const mocked = await observe(`${mock.origin}/api/v1`, profile, refs);
    console.log("");
    const differences = printTable(name, real, mocked);
    for (const difference of differences) failures.push(`differs: ${difference.key}: real ${difference.real}, mock ${difference.mock}`);

    const realLedger = await (await fetch(`${hub.origin}/__ledger`)).json();
    const mockLedger = await (await fetch(`${mock.origin}/_mock/ledger`)).json();
    const probes = realLedger.filter((entry) => !Object.values(refs).includes(entry.ref)).length;
    for (const [side, ledger] of [["real", realLedger], ["mock", mockLedger]]) {
      const problems = checkLedger(ledger, refs);
      console.log(`${problems.length === 0 ? " " : "✗"} ledger (${side}): ${problems.length === 0 ? `${refs.fresh} credited once, the refused awards never` : problems.join("; ")}`);
      for (const problem of problems) failures.push(`ledger (${side}): ${problem}`);
    }
    console.log(`  (doctor's probes credited ${probes} award(s) on the real hub)`);
  } catch (error) {
    failures.push(String(error.stack ?? error));
    if (mock) console.error(`mock output:\n${mock.output()}`);
  } finally {
    await mock?.stop();
    await hub?.stop();
  }
  for (const failure of failures) console.log(`FAIL ${name}: ${failure}`);
  console.log(`${failures.length === 0 ? "PASS" : "FAIL"} ${name}: real hub and its mock observed alike (${seconds(hubStarted)})`);
  results.push({ name, failures });
}
rmSync(work, { recursive: true, force: true });

const failed = results.filter((result) => result.failures.length > 0).length;
console.log(`\ne2e profile round trip: ${results.length - failed} passed, ${failed} failed (${seconds(started)})`);
process.exit(failed === 0 ? 0 : 1);
