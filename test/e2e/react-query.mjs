// examples/react-query end to end: the packed packages installed into a copy of the example, type-
// checked and built with Vite, served on one loopback port, the API on another (so CORS is real):
// `public-hub mock` from the packed CLI, as a web developer runs it. The page loaded in Chromium. One line per check, then "e2e react-query: N passed, M
// failed". Run by `npm run e2e:react-query` (installs the runtimes first, as `npm run e2e` does).
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, extname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";
import { BROWSER_BUDGET_BYTES, BROWSER_CEILING_BYTES } from "../../bench/bundle-budget.mjs";
import { installPacked, packedTarballs, repo } from "./lib/consumer.mjs";

const run = promisify(execFile);
// Outside the repository: nothing may resolve to its tsconfig paths, src/ or node_modules.
const work = join(tmpdir(), "public-hub-sdk-e2e-react-query");
const app = join(work, "react-query");
const WALLET = "0x1111111111111111111111111111111111111111";
const tally = { passed: 0, failed: 0 };

const line = (ok, what, detail = "") => {
  ok ? tally.passed++ : tally.failed++;
  console.log(`${ok ? "PASS" : "FAIL"} ${what}${detail ? ` — ${detail}` : ""}`);
};
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const exec = (file, args, options = {}) => run(file, args, { cwd: app, timeout: 300_000, maxBuffer: 64 << 20, ...options });

async function step(what, body) {
  try {
    return await body();
  } catch (error) {
    const output = [error.stdout, error.stderr].filter(Boolean).join("\n").trim();
    line(false, what, [String(error.stack ?? error).split("\n").slice(0, 6).join("\n    "), output.slice(-2000)].filter(Boolean).join("\n    "));
    return undefined;
  }
}

/** Installs the packed packages (built and packed once for all e2e scripts) into a copy of the example, as a user's app would. */
async function prepareApp() {
  rmSync(work, { recursive: true, force: true });
  const { sdk, cli } = await packedTarballs();
  const source = join(repo, "examples/react-query");
  cpSync(source, app, { recursive: true, filter: (path) => !/\/(node_modules|dist)(\/|$)/.test(path.slice(source.length)) });
  const pkg = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
  // The example names the CLI as a devDependency for `npm run mock`; here it is the packed one.
  delete pkg.devDependencies["public-hub-cli"];
  await installPacked(app, sdk, pkg, { cli });
  line(true, `packed ${basename(sdk)} and ${basename(cli)} and installed them into a copy of examples/react-query`);
  return basename(sdk);
}

/**
 * `public-hub mock --port 0` from the installed CLI: resolves once it printed where it listens. Its
 * log (one line per request) counts the requests and preflights the page made.
 */
async function startCliMock() {
  const child = spawn(join(app, "node_modules/.bin/public-hub"), ["mock", "--port", "0"], { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  let errors = "";
  const seen = { preflights: 0, requests: 0 };
  const exited = new Promise((done) => child.on("close", (code, signal) => done({ code, signal })));
  const origin = await new Promise((resolve, reject) => {
    child.stdout.on("data", (chunk) => {
      for (const text of String(chunk).split("\n")) {
        if (/^[A-Z]+ \/api\/v1\S* \d{3} \d+ ms$/.test(text)) {
          seen.requests++;
          if (text.startsWith("OPTIONS ")) seen.preflights++;
        }
      }
      output += chunk;
      const found = /listening on (http:\/\/[^/\s]+)\/api\/v1/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.stderr.on("data", (chunk) => (errors += chunk));
    exited.then(({ code }) => reject(new Error(`public-hub mock exited ${code}: ${errors}`)));
  });
  return {
    origin,
    baseUrl: `${origin}/api/v1`,
    seen,
    output: () => output,
    close: async () => {
      child.kill("SIGINT");
      return exited;
    },
  };
}

const TYPES = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml", ".json": "application/json" };

/** A static server of the built app on a loopback port (another origin than the API's). */
async function servePages(root) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, "http://localhost").pathname;
    const file = resolve(root, `.${path.endsWith("/") ? `${path}index.html` : path}`);
    if (!file.startsWith(root) || !existsSync(file)) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(readFileSync(file));
  });
  await new Promise((done) => server.listen(0, "localhost", done));
  return { origin: `http://localhost:${server.address().port}`, close: () => new Promise((done) => server.close(done)) };
}

async function browser(api, pages) {
  const require = createRequire(join(repo, ".tmp/runtimes/tools/package.json"));
  const { chromium } = require("playwright-core");
  const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
  const instance = await chromium.launch({ executablePath: "/usr/bin/chromium", args: flags });
  try {
    const open = async (clientId) => {
      const page = await instance.newPage();
      const errors = [];
      page.on("pageerror", (error) => errors.push(String(error)));
      await page.goto(`${pages.origin}/?api=${encodeURIComponent(api.baseUrl)}&clientId=${clientId}&hub=alpha`);
      return { page, errors };
    };

    await step("chromium: hub and leaderboard", async () => {
      const preflightsBefore = api.seen.preflights;
      const { page, errors } = await open("pk_alpha_demo");
      await page.waitForSelector("h1", { timeout: 30_000 });
      await page.waitForSelector("li", { timeout: 30_000 });
      const title = await page.textContent("h1");
      const rows = await page.locator("li").allTextContents();
      const preflights = api.seen.preflights - preflightsBefore;
      const ok = title === "Alpha Hub" && rows.length === 5 && rows[0] === `${WALLET} — 52000 staked` && preflights > 0 && errors.length === 0;
      line(ok, `chromium ${instance.version()}: page on ${pages.origin} shows "${title}" and ${rows.length} stakers from ${api.origin}`, `${preflights} CORS preflights${errors.length ? `; page errors: ${errors.join("; ")}` : ""}`);

      await page.fill("input[name=wallet]", WALLET);
      await page.click("form button[type=submit]");
      const points = await page.textContent("[data-testid=points]", { timeout: 30_000 });
      line(points === `${WALLET}: 250 points`, "chromium: a wallet's points (useQuery with enabled)", points ?? "");

      const reads = () => api.seen.requests - api.seen.preflights;
      const before = reads();
      await page.click("section button");
      for (let waited = 0; reads() - before < 3 && waited < 10_000; waited += 50) await new Promise((done) => setTimeout(done, 50));
      line(reads() - before === 3, "chromium: Refresh invalidates hubKeys.all(hub): hub, leaderboard and holder are read again", `${reads() - before} reads`);
    });

    await step("chromium: error of a key of another hub", async () => {
      const { page } = await open("pk_beta_demo");
      // The leaderboard's own alert may come first; the boundary's, with data-error, replaces the page.
      const alert = await page.textContent("[role=alert][data-error]", { timeout: 30_000 });
      const name = await page.getAttribute("[role=alert][data-error]", "data-error");
      line(alert === "This key belongs to another hub." && name === "ForbiddenError", "chromium: a key of another hub shows the ForbiddenError message (error boundary of useSuspenseQuery)", alert ?? "");
    });
  } finally {
    await instance.close();
  }
}

/** The same options on a server: prefetchQuery and dehydrate in Node, from the ESM and CJS builds. */
async function serverPrefetch(api) {
  const script = (load) => `
    ${load}
    const hub = new HubClient({ baseUrl: process.argv[1], clientId: "pk_alpha_demo", hub: "alpha" });
    const queryClient = new QueryClient();
    (async () => {
      await queryClient.prefetchQuery(hubQueries(hub).leaderboard({ limit: 3 }));
      const [query] = dehydrate(queryClient).queries;
      console.log(JSON.stringify({ key: query.queryKey, rows: query.state.data.entries.length }));
    })();`;
  const esm = script(`import { HubClient } from "public-hub-sdk"; import { hubQueries } from "public-hub-sdk/query"; import { QueryClient, dehydrate } from "@tanstack/query-core";`);
  const cjs = script(`const { HubClient } = require("public-hub-sdk"); const { hubQueries } = require("public-hub-sdk/query"); const { QueryClient, dehydrate } = require("@tanstack/query-core");`);
  for (const [format, args] of [["ESM", ["--input-type=module", "-e", esm]], ["CommonJS", ["--input-type=commonjs", "-e", cjs]]]) {
    await step(`node ${format} prefetchQuery`, async () => {
      const { stdout } = await exec(process.execPath, [...args, api.baseUrl]);
      const { key, rows } = JSON.parse(stdout.trim());
      const ok = JSON.stringify(key) === JSON.stringify(["public-hub", api.baseUrl, "alpha", "leaderboard", { limit: 3 }]) && rows === 3;
      line(ok, `node ${process.versions.node} (${format}): prefetchQuery + dehydrate of hubQueries(hub).leaderboard({ limit: 3 })`, `${JSON.stringify(key)}, ${rows} rows`);
    });
  }
}

async function bundleSizes() {
  const measure = async (contents) => {
    const result = await esbuild.build({ stdin: { contents, resolveDir: app }, bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "error", tsconfigRaw: {} });
    const code = result.outputFiles[0].text;
    return { gzip: gzipSync(code, { level: 9 }).length, code };
  };
  await step("bundle public-hub-sdk/query", async () => {
    const query = await measure('import { hubQueries, hubKeys } from "public-hub-sdk/query"; globalThis.x = [hubQueries, hubKeys];');
    line(!/@tanstack|react/.test(query.code), `bundle "public-hub-sdk/query" hubQueries + hubKeys, browser, min+gz: ${kb(query.gzip)}`, "no TanStack or React code");
    const both = await measure('import { HubClient } from "public-hub-sdk"; import { hubQueries } from "public-hub-sdk/query"; globalThis.x = [HubClient, hubQueries];');
    const root = await measure('import { HubClient } from "public-hub-sdk"; globalThis.x = HubClient;');
    line(root.gzip <= BROWSER_CEILING_BYTES, `bundle HubClient + hubQueries, min+gz: ${kb(both.gzip)}`, `HubClient alone ${kb(root.gzip)} (${root.gzip} B; ceiling ${kb(BROWSER_CEILING_BYTES)}; budget ${kb(BROWSER_BUDGET_BYTES)}, ${root.gzip > BROWSER_BUDGET_BYTES ? `missed by ${root.gzip - BROWSER_BUDGET_BYTES} B` : "met"}: see docs/build-notes.md); the query entry adds ${kb(both.gzip - root.gzip)}`);
  });
  await step("built query entry has no runtime import of TanStack", async () => {
    const dist = join(app, "node_modules/public-hub-sdk/dist/query");
    const imports = ["index.js", "index.cjs"].flatMap((file) => [...readFileSync(join(dist, file), "utf8").matchAll(/(?:from\s*|require\()\s*["']([^"']+)["']/g)].map((m) => m[1]));
    const bad = imports.filter((specifier) => !specifier.startsWith("."));
    line(bad.length === 0, "packed dist/query/index.{js,cjs} import only the package's own chunks", imports.join(", "));
  });
}

const tarball = await step("pack and install", prepareApp);
if (tarball) {
  const checked = await step("example type-check", async () => {
    await exec(join(app, "node_modules/.bin/tsc"), ["--noEmit", "-p", "."]);
    line(true, "example type-check (its own tsconfig: src and vite.config.ts, against the packed types)");
    return true;
  });
  const built = await step("vite build", async () => {
    const { stdout } = await exec(join(app, "node_modules/.bin/vite"), ["build", "--logLevel", "warn"]);
    const assets = join(app, "dist/assets");
    const js = readdirSync(assets).filter((file) => file.endsWith(".js"));
    const gzip = js.reduce((sum, file) => sum + gzipSync(readFileSync(join(assets, file)), { level: 9 }).length, 0);
    const vite = JSON.parse(readFileSync(join(app, "node_modules/vite/package.json"), "utf8")).version;
    line(js.length > 0 && statSync(join(app, "dist/index.html")).isFile(), `vite ${vite} build of examples/react-query`, `${js.length} JS file(s), ${kb(gzip)} min+gz with React and TanStack Query${stdout.trim() ? `; ${stdout.trim()}` : ""}`);
    return true;
  });
  if (checked && built) {
    const api = await step("public-hub mock", async () => {
      const mock = await startCliMock();
      const banner = mock.output();
      line(/pk_alpha_demo\s+alpha\s+demo-secret-alpha/.test(banner) && banner.includes("CORS: any origin"), "public-hub mock (packed CLI) listens, printing the demo hubs and keys", banner.split("\n")[0]);
      return mock;
    });
    if (api) {
      const pages = await servePages(join(app, "dist"));
      console.log(`e2e react-query: packed ${tarball}, page on ${pages.origin}, API (public-hub mock) on ${api.baseUrl}`);
      try {
        await serverPrefetch(api);
        await step("chromium", () => browser(api, pages));
      } finally {
        await pages.close();
        const { code, signal } = await api.close();
        line(code === 0 && api.output().includes("mock stopped"), "public-hub mock stops cleanly on SIGINT (Ctrl-C)", `exit ${code ?? signal}`);
      }
    }
  }
  await bundleSizes();
}
console.log(`e2e react-query: ${tally.passed} passed, ${tally.failed} failed`);
process.exitCode = tally.failed === 0 && tally.passed > 0 ? 0 : 1;
