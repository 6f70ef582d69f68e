// The campaign end to end (`npm run e2e:campaign`): both packed packages (public-hub-sdk and
// public-hub-cli) installed in a fresh project, the CLI's `public-hub` bin against a real HTTP server (the mock behind node:http, with a delay per award
// so a kill lands midway), ≥ 500 awards, SIGKILL mid-campaign, then the same command again with the
// same journal: every award applied exactly once, and nothing the journal showed as done resent.
// The campaign goes through a real nginx whose `limit_req` answers 429 (without Retry-After) above
// its rate: the client's rate gate must find that rate, and no award may fail or double.
// A wrong secret stops a campaign early. An SDK-only consumer's production tree is the SDK, ky and zod.
// One PASS/FAIL line per check, then "e2e campaign: N passed, M failed"; exit 1 on any failure.
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { installPacked, packedTarballs, repo, versionOf } from "./lib/consumer.mjs";
import { startNginx } from "./lib/nginx.mjs";

const run = promisify(execFile);
// Outside the repository, so nothing resolves to its src/ or node_modules.
const work = join(tmpdir(), "public-hub-sdk-e2e-campaign");
const consumer = join(work, "consumer");
const AWARDS = 600;
const DELAY_MS = 15;
const tally = { passed: 0, failed: 0 };
const started = performance.now();

const line = (ok, what, detail = "") => {
  ok ? tally.passed++ : tally.failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${what}${detail ? ` — ${detail}` : ""}`);
};

async function step(what, body) {
  try {
    await body();
  } catch (error) {
    line(false, what, String(error.stack ?? error).split("\n").slice(0, 12).join("\n    "));
  }
}

/** Both packed packages (built and packed once for all e2e scripts) installed with msw, for the server, in a fresh project. */
async function prepareConsumer() {
  rmSync(work, { recursive: true, force: true });
  const { sdk, cli } = await packedTarballs();
  mkdirSync(consumer, { recursive: true });
  cpSync(join(repo, "test/e2e/consumer/api-server.mjs"), join(consumer, "api-server.mjs"));
  await installPacked(consumer, sdk, { name: "campaign-consumer", private: true, type: "module", dependencies: { msw: versionOf("msw") } }, { cli });
  return { sdk, cli };
}

/**
 * The installed packages in `npm ls --omit=dev --all --json` of a project, the project itself
 * excluded. Optional peers that are not installed (msw, @tanstack/query-core) are listed there
 * as empty objects: not installed, so not counted.
 */
async function productionTree(dir) {
  const { stdout } = await run("npm", ["ls", "--omit=dev", "--all", "--json"], { cwd: dir, maxBuffer: 64 << 20 });
  const names = new Set();
  const walk = (deps = {}) => {
    for (const [name, node] of Object.entries(deps)) {
      if (node.version === undefined) continue;
      names.add(name);
      walk(node.dependencies);
    }
  };
  walk(JSON.parse(stdout).dependencies);
  return [...names].sort();
}

/** Runs the installed bin; resolves with its exit code and output. */
function cli(args, env, { onSpawn } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(join(consumer, "node_modules/.bin/public-hub"), args, { cwd: work, env: { ...process.env, ...env, NO_COLOR: "1" } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
    onSpawn?.(child);
  });
}

const journalRefs = (path) =>
  existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(1, -1).map((text) => JSON.parse(text).ref) : [];

const tarballs = await prepareConsumer();
const tarball = `${basename(tarballs.sdk)} and ${basename(tarballs.cli)}`;
const { startApiServer } = await import(pathToFileURL(join(consumer, "api-server.mjs")).href);
const { http, delay } = createRequire(join(consumer, "package.json"))("msw");
const api = await startApiServer();
// Awards take DELAY_MS on the server, so a campaign lasts long enough to be killed midway. A handler
// that returns nothing falls through to the mock's own.
api.mock.handlers.unshift(http.post("*", async () => void (await delay(DELAY_MS))));
const env = { HUB_BASE_URL: api.baseUrl, HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha" };
// nginx in front, limiting to 40 requests/s per client address (a burst of 5), 429 above it.
const LIMIT_PER_SECOND = 40;
const nginx = await startNginx({
  upstream: api.origin,
  http: `limit_req_zone $binary_remote_addr zone=hub:1m rate=${LIMIT_PER_SECOND}r/s;`,
  location: "limit_req zone=hub burst=5 nodelay; limit_req_status 429;",
});
const limited = { ...env, HUB_BASE_URL: `${nginx.origin}/api/v1` };
console.log(`e2e campaign: packed ${tarball}, API server on ${api.baseUrl}, nginx ${nginx.version} with limit_req ${LIMIT_PER_SECOND}r/s on ${nginx.origin}`);

try {
  await step("bin", async () => {
    const help = await cli(["--help"], {});
    line(help.code === 0 && help.stdout.includes("Usage: public-hub"), "bin public-hub --help from the installed tarball", `exit ${help.code}`);
    const doctor = await cli(["doctor"], env);
    line(doctor.code === 0, "bin public-hub doctor", doctor.stdout.trim().split("\n").join("; "));
    const board = await cli(["leaderboard", "--limit", "3", "--json"], env);
    line(board.code === 0 && JSON.parse(board.stdout).entries.length === 3, "bin public-hub leaderboard --json", `exit ${board.code}`);
  });

  await step("dry run", async () => {
    const bad = join(work, "bad.csv");
    writeFileSync(bad, "wallet,amount,reason,ref\n0x1,5,,b-1\n0x2,-1,,b-2\n0x3,5,,b-1\n");
    const before = api.mock.requests.length;
    const dry = await cli(["award", "--file", bad, "--dry-run"], {});
    const ok =
      dry.code === 2 &&
      /1 × HubValidationError amount:\S+: .*\n {4}line 3\n/.test(dry.stdout) &&
      /1 × RefConflictError: ref "b-1".*\n {4}line 4\n/.test(dry.stdout) &&
      dry.stdout.includes("credentials not checked") &&
      api.mock.requests.length === before;
    line(ok, "bin award --dry-run: exit 2, bad rows by cause and line, credentials not checked, nothing sent", dry.stdout.trim().split("\n").join("; "));
  });

  await step("wrong secret stops early", async () => {
    const file = join(work, "doomed.csv");
    writeFileSync(file, `wallet,amount,reason,ref\n${Array.from({ length: 300 }, (_, i) => `0x${i},1,season,doomed-${i}`).join("\n")}\n`);
    const journal = join(work, "doomed.journal");
    const posts = () => api.mock.requests.filter((r) => r.method === "POST" && JSON.parse(r.body).ref?.startsWith("doomed-")).length;
    const doctor = await cli(["doctor"], { ...env, HUB_SECRET: "wrong" });
    line(doctor.code === 1 && /^✗ secret: /m.test(doctor.stdout), "bin doctor with a wrong secret: ✗ secret, exit 1", doctor.stdout.trim().split("\n").filter((l) => l.startsWith("✗")).join("; "));
    const doomed = await cli(["award", "--file", file, "--journal", journal, "--concurrency", "4"], { ...env, HUB_SECRET: "wrong" });
    const sent = posts();
    line(
      doomed.code === 1 && sent <= 13 && doomed.stderr.includes("Stopped early after 10 awards in a row were refused: 401"),
      "bin award with a wrong secret: stops after 10 refusals of 300 rows, exit 1",
      `${sent} POSTs, exit ${doomed.code}; ${doomed.stderr.trim().split("\n").at(-1)}`,
    );
    const fixed = await cli(["award", "--file", file, "--journal", journal, "--concurrency", "8", "--json"], env);
    const summary = JSON.parse(fixed.stdout);
    const credited = api.mock.ledger.filter((a) => a.ref.startsWith("doomed-")).length;
    line(fixed.code === 0 && summary.applied === 300 && credited === 300, "bin award again with the right secret and the same journal: all 300 applied once", `applied ${summary.applied}, ${credited} credits`);
    api.mock.reset(); // the campaign below counts the ledger from empty
  });

  await step("npm ls --omit=dev of an SDK consumer", async () => {
    const dir = join(work, "sdk-only");
    await installPacked(dir, tarballs.sdk, { name: "sdk-only", private: true });
    const names = await productionTree(dir);
    const { stdout } = await run("npm", ["ls", "--omit=dev", "--all"], { cwd: dir });
    const bins = existsSync(join(dir, "node_modules/.bin")) ? readdirSync(join(dir, "node_modules/.bin")) : [];
    line(JSON.stringify(names) === JSON.stringify(["ky", "public-hub-sdk", "zod"]) && bins.length === 0, "npm ls --omit=dev in a consumer of public-hub-sdk: ky and zod only, no bin", `${names.join(", ")}; npm ls: ${stdout.trim().split("\n").slice(1).join(" ")}`);
  });

  await step("campaign through nginx limit_req, killed and resumed", async () => {
    const file = join(work, "season.csv");
    const rows = Array.from({ length: AWARDS }, (_, i) => `0x${(i % 97).toString(16).padStart(40, "0")},${1 + (i % 9)},season,season-1:${i}`);
    writeFileSync(file, `wallet,amount,reason,ref\n${rows.join("\n")}\n`);
    const journal = join(work, "season.journal");
    const args = ["award", "--file", file, "--journal", journal, "--concurrency", "8"];

    // First run: SIGKILL once a third of the awards reached the server.
    const killed = await cli(args, limited, {
      onSpawn: (child) => {
        const timer = setInterval(() => {
          if (api.mock.ledger.length >= AWARDS / 3) {
            clearInterval(timer);
            child.kill("SIGKILL");
          }
        }, 5);
      },
    });
    const appliedAtKill = api.mock.ledger.length;
    const done = journalRefs(journal);
    line(killed.signal === "SIGKILL" && appliedAtKill < AWARDS, "campaign: SIGKILL midway", `${appliedAtKill}/${AWARDS} applied when killed, ${done.length} in the journal`);
    const applied = new Set(api.mock.ledger.map((a) => a.ref));
    line(done.length > 0 && done.every((ref) => applied.has(ref)), "campaign: the journal shows only awards the server applied", `${done.length} journal lines`);

    // Second run: same command, same journal.
    const before = api.mock.requests.length;
    const resumed = await cli([...args, "--json"], limited);
    const summary = JSON.parse(resumed.stdout);
    const resent = api.mock.requests.slice(before).filter((r) => r.method === "POST" && done.includes(JSON.parse(r.body).ref));
    line(resumed.code === 0 && summary.failed.length === 0, "campaign: the run again exits 0", `applied ${summary.applied}, duplicates ${summary.duplicates}, skipped ${summary.skipped}, failed ${summary.failed.length}, ${summary.elapsedMs} ms`);
    line(resent.length === 0 && summary.skipped === done.length, "campaign: nothing the journal showed as done was resent", `${resent.length} resent, ${summary.skipped} skipped`);
    const counts = new Map();
    for (const award of api.mock.ledger) counts.set(award.ref, (counts.get(award.ref) ?? 0) + 1);
    const twice = [...counts].filter(([, n]) => n > 1);
    const missing = Array.from({ length: AWARDS }, (_, i) => `season-1:${i}`).filter((ref) => !counts.has(ref));
    line(twice.length === 0 && missing.length === 0 && api.mock.ledger.length === AWARDS, `campaign: each of the ${AWARDS} awards applied exactly once`, `${api.mock.ledger.length} credits, ${twice.length} twice, ${missing.length} missing`);
    line(journalRefs(journal).length === AWARDS, "campaign: the journal lists every award at the end", `${journalRefs(journal).length} lines`);
    const beforeAgain = api.mock.requests.length;
    const again = await cli([...args, "--json"], limited);
    const sentAgain = api.mock.requests.slice(beforeAgain).filter((r) => r.method === "POST").length;
    line(again.code === 0 && sentAgain === 0, "campaign: a run again sends nothing, exit 0", `${sentAgain} POSTs, exit ${again.code}`);
    const posts = nginx.accessLog().filter((entry) => entry.startsWith("POST "));
    const throttled = posts.filter((entry) => entry.split(" ")[2] === "429").length;
    line(
      throttled > 0,
      `campaign: nginx limit_req answered 429 and every award still landed once`,
      `${posts.length} POSTs through nginx for ${AWARDS} awards (${(posts.length / AWARDS).toFixed(2)} per award), ${throttled} answered 429`,
    );
  });
} finally {
  await nginx.stop();
  await api.close();
}
console.log(`e2e campaign: ${tally.passed} passed, ${tally.failed} failed (${((performance.now() - started) / 1000).toFixed(0)} s)`);
process.exitCode = tally.failed === 0 ? 0 : 1;
