// Campaigns against hubs that enforce "once per ref" with a unique index and answer a reused ref
// their framework's default way (`npm run e2e:unique-index`): Django REST framework's
// `400 {"ref": ["award with this ref already exists."]}`, FastAPI's `409 {"detail": "Award with ref …
// already exists"}`, Flask's HTML 409 page and Hono's `409 text/plain` (test/e2e/framework-hubs:
// python/ and hono.mjs). For each hub, through the BUILT package's `HubServerClient.awardMany`
// (dist/server/index.js) and a small HTTP proxy in front of the hub that counts the awards it
// forwards:
//   (a) 20 fresh awards: 20 applied;
//   (b) the same 20 again, without a journal: 20 duplicates, 0 failed;
//   (c) with a journal: 10 new awards, 5 repeats of (a), 3 rows the hub refuses and the SDK's own
//       check lets through (a wallet of the wrong shape, an amount of 7.5, an amount over the hub's
//       maximum), and one new award whose answer the proxy loses: it forwards it, lets the hub commit
//       and answer, then destroys the client's connection, so the SDK sends it again and meets
//       "already exists": counted applied (the SDK's own attempt applied it), not a duplicate, not
//       failed;
//   (d) (c) again with the same journal: only what was not applied or a duplicate is sent (counted
//       at the proxy).
// The counts are checked against the design and against the hub's own ledger (GET /_ledger or
// /__ledger): every ref credited once, every balance the seed plus its awards.
// `node test/e2e/unique-index.mjs [drf|fastapi|flask|hono]…` (default: all four). It runs
// test/e2e/framework-hubs/install.sh and install-python.sh first (no-ops once installed; the Python
// one needs root or sudo for apt), and builds dist/ (`npm run build:sdk`) when it is missing or
// older than src/ (`--no-build` skips that; `--dist DIR` imports DIR/server/index.js instead).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CLIENT_ID, SECRET, SEED, SLUG } from "./framework-hubs/common.mjs";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const HUBS = ["drf", "fastapi", "flask", "hono"];
const args = process.argv.slice(2);
const noBuild = args.includes("--no-build");
const distAt = args.indexOf("--dist");
const dist = distAt === -1 ? join(repo, "dist") : resolve(args[distAt + 1]);
const wanted = args.filter((arg, index) => !arg.startsWith("--") && (distAt === -1 || index !== distAt + 1));
const unknown = wanted.filter((name) => !HUBS.includes(name));
if (unknown.length > 0) {
  console.error(`unknown hub(s): ${unknown.join(", ")}; known: ${HUBS.join(", ")}`);
  process.exit(2);
}
const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs a command; resolves with its exit code and output (never rejects on a non-zero exit). */
function run(command, commandArgs, { timeoutMs = 600_000 } = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, commandArgs, { cwd: repo, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => (clearTimeout(timer), resolvePromise({ code: code ?? signal, output })));
  });
}

// ---- the frameworks (no-ops once installed).
const selected = HUBS.filter((hub) => wanted.length === 0 || wanted.includes(hub));
const installs = [selected.includes("hono") && "install.sh", selected.some((hub) => hub !== "hono") && "install-python.sh"].filter(Boolean);
for (const script of installs) {
  const install = await run("bash", [join(repo, "test/e2e/framework-hubs", script)]);
  if (install.code !== 0) {
    console.error(`test/e2e/framework-hubs/${script} failed (exit ${install.code}):\n${install.output}`);
    process.exit(1);
  }
}

// ---- the built SDK, rebuilt when missing or older than src/.
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .reduce((latest, entry) => Math.max(latest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs), 0);
const serverBuild = join(dist, "server/index.js");
if (!noBuild && distAt === -1 && (!existsSync(serverBuild) || statSync(serverBuild).mtimeMs < newest(join(repo, "src")))) {
  console.log("building dist/ (npm run build:sdk): missing or older than src/");
  const build = await run("npm", ["run", "build:sdk"]);
  if (build.code !== 0) {
    console.error(`npm run build:sdk failed (exit ${build.code}):\n${build.output}`);
    process.exit(1);
  }
}
const { HubServerClient } = await import(pathToFileURL(serverBuild).href);
const { startPythonHub } = await import(pathToFileURL(join(repo, "test/e2e/framework-hubs/python/start.mjs")).href);

// ---- a proxy in front of a hub: counts the awards it forwards, and can lose one answer.
const EARN = `/api/v1/hub/${SLUG}/bits/earn`;
async function startProxy(target) {
  const agent = new http.Agent({ keepAlive: true });
  const sent = new Map(); // ref → requests forwarded
  const toLose = new Set();
  const lost = [];
  let awards = 0;
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      let ref;
      if (req.method === "POST" && req.url === EARN) {
        awards++;
        try {
          ref = JSON.parse(body.toString("utf8")).ref;
        } catch {}
        sent.set(ref, (sent.get(ref) ?? 0) + 1);
      }
      const upstream = http.request(new URL(req.url, target), { method: req.method, headers: { ...req.headers, host: new URL(target).host }, agent }, (answer) => {
        const parts = [];
        answer.on("data", (chunk) => parts.push(chunk));
        answer.on("end", () => {
          if (ref !== undefined && toLose.delete(ref)) {
            // The hub committed and answered; the client never hears of it.
            lost.push({ ref, status: answer.statusCode });
            req.socket.destroy();
            return;
          }
          const headers = { ...answer.headers };
          delete headers["transfer-encoding"];
          delete headers.connection;
          delete headers["keep-alive"];
          const payload = Buffer.concat(parts);
          res.writeHead(answer.statusCode, { ...headers, "content-length": payload.length });
          res.end(payload);
        });
      });
      upstream.on("error", (error) => (res.writeHead(502, { "content-type": "text/plain" }), res.end(`proxy: ${error.message}`)));
      upstream.end(body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    url: `${origin}/api/v1`,
    loseAnswerOf: (ref) => toLose.add(ref),
    lost,
    sent,
    get awards() {
      return awards;
    },
    reset: () => ((awards = 0), sent.clear()),
    stop: () => new Promise((done) => (server.closeAllConnections(), server.close(() => (agent.destroy(), done())))),
  };
}

// ---- the hubs.
const LEDGER = { drf: "/_ledger", fastapi: "/_ledger", flask: "/_ledger", hono: "/__ledger" };
/** What each hub does with the rows the SDK lets through; FastAPI's pydantic 1 coerces 7.5 to 7 (its default) and applies it. */
const CREDITS_FRACTION = { fastapi: 7 };
async function startHub(name) {
  if (name === "hono") {
    const { start } = await import(pathToFileURL(join(repo, "test/e2e/framework-hubs/hono.mjs")).href);
    const hub = await start({ port: 0 });
    return { ...hub, output: () => "" };
  }
  // A limit no campaign here reaches: this suite is about refs, not pace.
  return startPythonHub(name, { env: { HUB_AWARD_RATE: "100000/minute" } });
}

const wallet = (batch, i) => `0x${"c0".repeat(18)}${batch}${i.toString(16).padStart(3, "0")}`;
const award = (batch, i) => ({ wallet: wallet(batch, i), amount: i + 1, reason: `unique-index ${batch}`, ref: `ui-${batch}-${String(i).padStart(2, "0")}` });

/** Runs a campaign; a CampaignStoppedError's summary is the result too. */
async function campaign(client, awards, options = {}) {
  try {
    return { summary: await client.awardMany(awards, { concurrency: 8, ...options }) };
  } catch (error) {
    if (error?.summary) return { summary: error.summary, stopped: error };
    return { summary: undefined, stopped: error };
  }
}
const counts = (summary) => (summary ? `applied ${summary.applied}, duplicates ${summary.duplicates}, skipped ${summary.skipped}, failed ${summary.failed.length}` : "(no summary)");
const whyFailed = (summary) => [...new Set((summary?.failed ?? []).map(({ award: row, error }) => `${row.ref}: ${error.name} ${error.status ?? ""}`.trim()))];

async function runHub(name, work) {
  const checks = [];
  const check = (what, expected, observed, ok = String(expected) === String(observed)) => checks.push({ what, expected: String(expected), observed: String(observed), ok });
  /** A line that explains a failed check; not a check itself. */
  const note = (what, observed) => checks.push({ what, expected: "", observed: String(observed), ok: undefined });
  const logs = [];
  const logger = Object.fromEntries(["debug", "info", "warn", "error"].map((level) => [level, (line) => logs.push(`${level} ${line}`)]));
  let hub;
  let proxy;
  try {
    hub = await startHub(name);
    proxy = await startProxy(hub.origin);
    const client = () => new HubServerClient({ baseUrl: proxy.url, clientId: CLIENT_ID, hub: SLUG, secret: SECRET, logLevel: "info", logger });
    const ledger = async () => (await fetch(`${hub.origin}${LEDGER[name]}`)).json();

    // (a) 20 fresh awards.
    const first = Array.from({ length: 20 }, (_, i) => award("a", i));
    const a = await campaign(client(), first);
    check("(a) 20 fresh awards", "applied 20, duplicates 0, skipped 0, failed 0", counts(a.summary));

    // (b) the same 20, no journal: the hub already has every ref.
    const b = await campaign(client(), first);
    check("(b) the same 20 again, no journal", "applied 0, duplicates 20, skipped 0, failed 0", counts(b.summary));
    if (b.summary?.failed.length) note("(b) why they failed", whyFailed(b.summary).slice(0, 2).join("; ") + (b.summary.failed.length > 2 ? "; …" : ""));

    // (c) mixed, with a journal; one answer lost on the way back.
    const before = new Set((await ledger()).awards.map((entry) => entry.ref));
    const fresh = Array.from({ length: 10 }, (_, i) => award("c", i));
    const lostAward = award("c", 10);
    const invalid = [
      { ...award("c", 11), wallet: "0xnot-a-wallet" },
      { ...award("c", 12), amount: 7.5 },
      { ...award("c", 13), amount: 2_000_000 },
    ];
    const mixed = [...fresh.slice(0, 4), first[0], invalid[0], lostAward, first[5], ...fresh.slice(4, 7), invalid[1], first[10], first[15], ...fresh.slice(7), invalid[2], first[19]];
    const creditedFraction = CREDITS_FRACTION[name] !== undefined;
    const design = { applied: 11 + (creditedFraction ? 1 : 0), duplicates: 5, failed: 3 - (creditedFraction ? 1 : 0) };
    proxy.loseAnswerOf(lostAward.ref);
    const journal = join(work, `${name}.journal`);
    const c = await campaign(client(), mixed, { journal });
    const after = await ledger();
    const mixedRefs = mixed.map((row) => row.ref);
    const byLedger = {
      applied: mixedRefs.filter((ref) => !before.has(ref) && after.awards.some((entry) => entry.ref === ref)).length,
      duplicates: mixedRefs.filter((ref) => before.has(ref)).length,
    };
    byLedger.failed = mixed.length - byLedger.applied - byLedger.duplicates;
    const view = ({ applied, duplicates, failed }) => `applied ${applied}, duplicates ${duplicates}, skipped 0, failed ${failed}`;
    check(`(c) mixed batch of ${mixed.length}: the hub's ledger vs the design`, view(design), view(byLedger));
    check("(c) mixed batch: the SDK's counts vs the ledger", view(byLedger), counts(c.summary));
    const refused = invalid.filter((row) => !(creditedFraction && row.amount === 7.5)).map((row) => row.ref);
    const failedRefs = (c.summary?.failed ?? []).map((failure) => failure.award.ref).sort();
    check("(c) the failed ones: the hub's refusals only", refused.join(", "), failedRefs.join(", ") || "(none)", failedRefs.join() === refused.join());
    if (failedRefs.join() !== refused.join()) note("(c) why they failed", whyFailed(c.summary).join("; "));
    const lostIndex = mixed.indexOf(lostAward);
    const lostVerdict =
      !c.summary ? "(no summary)"
      : c.summary.failed.some((failure) => failure.index === lostIndex) ? "failed"
      : c.summary.duplicates > byLedger.duplicates ? "duplicate"
      : "applied";
    const lostAnswers = proxy.lost.map(({ status }) => status);
    const lostView = lostAnswers.length === 1 && lostAnswers[0] >= 200 && lostAnswers[0] < 300 ? "its 2xx lost once" : `lost ${lostAnswers.length} time(s), the hub's ${lostAnswers.join(", ") || "-"}`;
    check("(c) lost answer: the hub applied it, the client lost the answer", "its 2xx lost once, sent 2 times", `${lostView}, sent ${proxy.sent.get(lostAward.ref) ?? 0} times`);
    check("(c) lost answer: counted as", "applied", lostVerdict);

    // Every ref credited once, each balance the seed plus its awards.
    const refs = after.awards.map((entry) => entry.ref);
    const twice = refs.filter((ref, i) => refs.indexOf(ref) !== i);
    check("ledger: each ref credited once", "no ref twice", twice.length === 0 ? "no ref twice" : `twice: ${twice.join(", ")}`);
    const expectedBalances = new Map(Object.entries(SEED.balances));
    for (const entry of after.awards) expectedBalances.set(entry.wallet, (expectedBalances.get(entry.wallet) ?? 0) + entry.amount);
    const wrong = [...expectedBalances].filter(([w, bits]) => after.balances[w] !== bits).map(([w, bits]) => `${w}: ${after.balances[w]} not ${bits}`);
    check("ledger: balances = seed + awards", "all", wrong.length === 0 ? "all" : wrong.join("; "));
    const sentAmounts = new Map([...first, ...mixed].map((row) => [row.ref, row.amount]));
    const changed = after.awards.filter((entry) => sentAmounts.get(entry.ref) !== entry.amount).map((entry) => `${entry.ref}: ${sentAmounts.get(entry.ref)} credited ${entry.amount}`);
    check("ledger: amounts as sent", creditedFraction ? `ui-c-12: 7.5 credited ${CREDITS_FRACTION[name]}` : "all", changed.length === 0 ? "all" : changed.join("; "));

    // (d) again with the journal: only what the hub does not hold is sent.
    proxy.reset();
    const d = await campaign(client(), mixed, { journal });
    const held = design.applied + design.duplicates;
    check("(d) (c) again with its journal: awards sent (at the proxy)", design.failed, proxy.awards);
    check("(d) (c) again with its journal", `applied 0, duplicates 0, skipped ${held}, failed ${design.failed}`, counts(d.summary));
    for (const [step, result] of Object.entries({ a, b, c, d })) if (result.stopped && !result.summary) check(`(${step}) campaign`, "completed", `threw ${result.stopped.name}: ${result.stopped.message}`);
  } catch (error) {
    check("ran to the end", "yes", String(error.stack ?? error));
  } finally {
    await proxy?.stop();
    await hub?.stop();
  }
  if (checks.some((row) => row.ok === false)) {
    const out = hub?.output?.().trim();
    if (out) console.log(`  ${name} hub output:\n${out.replace(/^/gm, "  | ")}`);
    if (logs.length) console.log(`  SDK log (last 10):\n${logs.slice(-10).join("\n").replace(/^/gm, "  | ")}`);
  }
  return checks;
}

function printTable(name, checks) {
  const width = (key, title) => Math.max(title.length, ...checks.map((row) => row[key].length));
  const [w, e] = [width("what", "check"), width("expected", "expected")];
  console.log(`  ${"check".padEnd(w)}  ${"expected".padEnd(e)}  observed`);
  console.log(`  ${"-".repeat(w)}  ${"-".repeat(e)}  ${"-".repeat(8)}`);
  for (const row of checks) console.log(`${row.ok ? " " : row.ok === false ? "✗" : " "} ${row.what.padEnd(w)}  ${row.expected.padEnd(e)}  ${row.ok ? "=" : row.observed}`);
}

const work = mkdtempSync(join(tmpdir(), "public-hub-unique-index-"));
let passed = 0;
let failedCount = 0;
const perHub = [];
try {
  for (const name of selected) {
    const hubStarted = performance.now();
    console.log(`\n=== ${name}`);
    const rows = await runHub(name, work);
    printTable(name, rows);
    const checks = rows.filter((row) => row.ok !== undefined);
    const bad = checks.filter((row) => !row.ok).length;
    passed += checks.length - bad;
    failedCount += bad;
    perHub.push(`${bad === 0 ? "PASS" : "FAIL"} ${name}: ${checks.length - bad}/${checks.length} checks (${seconds(hubStarted)})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\n${perHub.join("\n")}`);
console.log(`e2e unique index: ${passed} passed, ${failedCount} failed (${seconds(started)})`);
process.exit(failedCount === 0 ? 0 : 1);
