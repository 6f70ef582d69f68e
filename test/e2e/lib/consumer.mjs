// The packed package in a consumer project outside the repository, as users install it.
import { execFile } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const repo = fileURLToPath(new URL("../../..", import.meta.url));

/**
 * Builds and packs the package into `work` (emptied first), copies test/e2e/consumer to
 * `work/consumer` and installs the tarball (and msw, the mock's peer) there.
 * Returns the tarball's path and the consumer directory.
 */
export async function prepareConsumer(work) {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // Build first, then pack without scripts: prepack's build log would otherwise mix into the JSON.
  await run("npm", ["run", "build"], { cwd: repo });
  const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: repo });
  const tarball = JSON.parse(stdout.slice(stdout.indexOf("[")))[0].filename;
  const consumer = join(work, "consumer");
  cpSync(join(repo, "test/e2e/consumer"), consumer, { recursive: true });
  const mswVersion = JSON.parse(readFileSync(join(repo, "node_modules/msw/package.json"), "utf8")).version;
  const pkg = { name: "hub-consumer", private: true, dependencies: { "public-hub-sdk": `file:../${tarball}`, msw: mswVersion } };
  writeFileSync(join(consumer, "package.json"), JSON.stringify(pkg, null, 2));
  await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: consumer, timeout: 180_000, maxBuffer: 64 << 20 });
  return { tarball: join(work, tarball), consumer };
}
