// The Next.js app of test/e2e/next-app, built and started for real (`next build`, `next start`)
// outside the repository with the packed package installed from its tarball.
import { execFile, spawn } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { repo } from "./consumer.mjs";
import { freePort } from "./nginx.mjs";

const run = promisify(execFile);
const template = join(repo, "test/e2e/next-app");
// next, react and typescript, installed once per version set (the key is the template's package.json).
const cache = join(repo, ".tmp/next-app");
const npmArgs = ["--no-audit", "--no-fund", "--loglevel=error"];
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" };

async function installedDependencies() {
  const manifest = readFileSync(join(template, "package.json"), "utf8");
  const done = join(cache, ".done");
  if (!existsSync(done) || readFileSync(done, "utf8") !== manifest) {
    rmSync(cache, { recursive: true, force: true });
    cpSync(join(template, "package.json"), join(cache, "package.json"));
    await run("npm", ["install", ...npmArgs], { cwd: cache, timeout: 300_000, maxBuffer: 64 << 20 });
    writeFileSync(done, manifest);
  }
  return JSON.parse(manifest);
}

/** Copies the app to `dir` with the cached dependencies plus the tarball, then runs `next build`. */
export async function buildNextApp(dir, tarball) {
  const manifest = await installedDependencies();
  rmSync(dir, { recursive: true, force: true });
  cpSync(template, dir, { recursive: true });
  // verbatimSymlinks: .bin links must stay relative, or `next` would run (and load React) from the cache.
  cpSync(join(cache, "node_modules"), join(dir, "node_modules"), { recursive: true, verbatimSymlinks: true });
  manifest.dependencies["public-hub-sdk"] = `file:${tarball}`;
  writeFileSync(join(dir, "package.json"), JSON.stringify(manifest, null, 2));
  await run("npm", ["install", "--no-package-lock", ...npmArgs], { cwd: dir, timeout: 180_000, maxBuffer: 64 << 20 });
  const started = Date.now();
  const { stdout } = await run(join(dir, "node_modules/.bin/next"), ["build"], { cwd: dir, env, timeout: 300_000, maxBuffer: 64 << 20 });
  const next = JSON.parse(readFileSync(join(dir, "node_modules/next/package.json"), "utf8")).version;
  return { next, buildMs: Date.now() - started, buildLog: stdout };
}

/** `next start` on a free loopback port; resolves once it answers. Stop it with `stop()` (by pid). */
export async function startNextApp(dir, extraEnv) {
  const port = await freePort();
  const child = spawn(join(dir, "node_modules/.bin/next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: dir,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${origin}/favicon.ico`).then(() => true, () => false);
    if (up) return { origin, pid: child.pid, output: () => output, stop };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await stop();
  throw new Error(`next start did not answer on ${origin}:\n${output.slice(-2000)}`);
}
