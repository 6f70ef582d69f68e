// "Prove it where users run it" (issue 10): the packed package against real components — a real
// nginx, a real Next.js app-router app (`next build`, `next start`) and node:http servers of our
// own playing redirects, CDN caches, silent servers and resets. One PASS/FAIL line per check,
// then "real-world: N passed, M failed". Run by `npm run e2e:real-world`.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { prepareConsumer } from "./lib/consumer.mjs";
import { buildNextApp, startNextApp } from "./lib/next-app.mjs";
import { findNginx, freePort, startNginx } from "./lib/nginx.mjs";
import { CheckFailure, createReport, describe, expect } from "./lib/report.mjs";

const work = join(tmpdir(), "public-hub-sdk-e2e-real");
const report = createReport("real-world");
const { check } = report;
const started = Date.now();
const seconds = (from) => `${((Date.now() - from) / 1000).toFixed(1)} s`;

const { tarball, consumer } = await prepareConsumer(work);
const load = (file) => import(pathToFileURL(join(consumer, file)).href);
const { startApiServer } = await load("api-server.mjs");
console.log(`real-world: packed ${tarball.split("/").pop()} (${seconds(started)})`);

// next build runs while the other checks do; it is the slow part.
const nextBuild = buildNextApp(join(work, "next-app"), tarball).then((value) => ({ value }), (error) => ({ error }));
const tools = { check, expect, describe };

async function nginxPart() {
  const nginx = findNginx();
  if (!nginx) return report.line(false, "nginx", "not installed: run bash test/e2e/install-runtimes.sh");
  const api = await startApiServer({ wsgi: true });
  const up = await startNginx({ upstream: api.origin });
  const down = await startNginx({ upstream: `http://127.0.0.1:${await freePort()}` }); // nothing listens there
  try {
    const { nginxChecks } = await load("real-world/nginx-checks.mjs");
    await nginxChecks({ ...tools, api, nginx: up, downNginx: down });
  } finally {
    await up.stop();
    await down.stop();
    await api.close();
  }
}

async function ownServersPart() {
  await (await load("real-world/redirect-checks.mjs")).redirectChecks(tools);
  await (await load("real-world/clock-checks.mjs")).clockChecks(tools);
  await (await load("real-world/failure-checks.mjs")).failureChecks(tools);
}

async function nextPart() {
  const { value: build, error } = await nextBuild;
  if (error) return report.line(false, "Next.js next build", String(error.stderr || error.stdout || error.stack || error).slice(-3000));
  report.line(true, `Next.js ${build.next}: next build of the app-router app with the packed package`, `${(build.buildMs / 1000).toFixed(1)} s`);
  const api = await startApiServer({ wsgi: true });
  const app = await startNextApp(join(work, "next-app"), { HUB_BASE_URL: api.baseUrl, HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha" });
  try {
    await check(`Next.js: a server component reads (next start on ${app.origin})`, async () => {
      const response = await fetch(`${app.origin}/`);
      const html = await response.text();
      const name = html.match(/<h1 id="hub-name">([^<]*)<\/h1>/)?.[1];
      expect(response.status === 200 && name === "Alpha Hub", `status ${response.status}, hub name ${JSON.stringify(name)}: ${html.slice(0, 300)}`);
      return `page shows "${name}"`;
    });
    for (const [route, runtime, signer] of [["/api/award", "Node.js", "webcrypto"], ["/api/award-edge", "edge", "webcrypto"]]) {
      await check(`Next.js: a route handler (${runtime} runtime) awards twice with one ref; credited once, every POST has content-length`, async () => {
        const ref = `next-${runtime}:${Date.now()}`;
        const before = api.log.length;
        const body = JSON.stringify({ wallet: "0x1111111111111111111111111111111111111111", amount: 6, ref });
        const award = () => fetch(`${app.origin}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.json());
        const answers = [await award(), await award()];
        const posts = api.log.slice(before).filter((entry) => entry.method === "POST");
        const credits = api.mock.ledger.filter((entry) => entry.ref === ref).length;
        const framing = posts.map((entry) => `${entry.status} content-length=${entry.contentLength ?? "none"} transfer-encoding=${entry.transferEncoding ?? "none"}`);
        expect(posts.every((entry) => entry.contentLength !== undefined && entry.transferEncoding === undefined), `POSTs the API server received: ${JSON.stringify(framing)}; route answers ${JSON.stringify(answers)}`);
        expect(answers[0].ok && answers[1].ok && answers[0].result.duplicate === false && answers[1].result.duplicate === true && credits === 1, `route answers ${JSON.stringify(answers)}; ${credits} credits`);
        expect(answers[0].signer === signer, `signer ${answers[0].signer}, expected ${signer}`);
        return `${posts.length} POSTs (${framing.join("; ")}), credited once, signer ${answers[0].signer}`;
      });
    }
  } finally {
    await app.stop();
    await api.close();
  }
}

for (const [name, part] of [["nginx", nginxPart], ["own servers", ownServersPart], ["Next.js", nextPart]]) {
  try {
    await part();
  } catch (error) {
    report.line(false, name, error instanceof CheckFailure ? error.message : String(error?.stack ?? error).split("\n").slice(0, 10).join("\n    "));
  }
}
console.log(`real-world: done in ${seconds(started)}`);
process.exitCode = report.summary() ? 0 : 1;
