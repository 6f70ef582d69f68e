// The packed packages in projects outside the repository, as users install them: the SDK
// (public-hub-sdk) and the CLI (public-hub-cli, the `public-hub` bin). Every e2e script installs the
// same tarballs: they are built and packed once per content of what goes into them, so that CI,
// which runs the scripts one after another, builds and packs once instead of once per script.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);
export const repo = fileURLToPath(new URL("../../..", import.meta.url));

/** What the tarball is made of: its sources, its build settings, the locked build tools, its files. */
const INPUTS = ["src", "package.json", "package-lock.json", "tsup.config.ts", "tsconfig.json", "README.md", "CHANGELOG.md", "cli"];

function* files(path) {
  if (!statSync(path).isDirectory()) return yield path;
  for (const name of readdirSync(path).sort()) if (name !== "dist" && name !== "node_modules") yield* files(join(path, name));
}

function inputsHash() {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for (const file of files(join(repo, input))) hash.update(`${relative(repo, file)}\0`).update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex").slice(0, 16);
}

/**
 * The packed packages' tarballs (absolute paths): `{ sdk, cli }`. Built with `npm run build` (both
 * packages) and packed without scripts (prepack's build log would mix into the JSON) the first time
 * for these inputs; reused after that. `PUBLIC_HUB_E2E_REPACK=1` forces a new build.
 */
export async function packedTarballs() {
  const dir = join(tmpdir(), "public-hub-sdk-e2e-pack", inputsHash());
  const done = join(dir, "tarballs.json");
  if (existsSync(done) && !process.env.PUBLIC_HUB_E2E_REPACK) {
    const names = JSON.parse(readFileSync(done, "utf8"));
    const tarballs = { sdk: join(dir, names.sdk), cli: join(dir, names.cli) };
    if (existsSync(tarballs.sdk) && existsSync(tarballs.cli)) return tarballs;
  }
  // Packed into a fresh directory, renamed into place once complete: a script killed midway
  // leaves no half-written tarball behind to be reused.
  const staging = `${dir}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  await run("npm", ["run", "build"], { cwd: repo, maxBuffer: 64 << 20 });
  const pack = async (args) => {
    const { stdout } = await run("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", staging, ...args], { cwd: repo, maxBuffer: 64 << 20 });
    return JSON.parse(stdout.slice(stdout.indexOf("[")))[0].filename;
  };
  const names = { sdk: await pack([]), cli: await pack(["--workspace", "public-hub-cli"]) };
  writeFileSync(join(staging, "tarballs.json"), JSON.stringify(names));
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  return { sdk: join(dir, names.sdk), cli: join(dir, names.cli) };
}

/** The SDK's tarball (an absolute path), see {@link packedTarballs}. */
export async function packedTarball() {
  return (await packedTarballs()).sdk;
}

/** The version of a package installed in the repository (so consumers get the tested one). */
export const versionOf = (name) => JSON.parse(readFileSync(join(repo, "node_modules", name, "package.json"), "utf8")).version;

/**
 * Writes `packageJson` to `dir` with `public-hub-sdk` pointing at the tarball (and `public-hub-cli`
 * at the CLI's, when given), then `npm install`. The CLI's own dependency on the SDK is met by it.
 * @param {string} dir a project directory (created if missing)
 * @param {string} tarball from {@link packedTarball}
 * @param {Record<string, any>} packageJson the project's package.json without the SDK
 * @param {{ cli?: string }} [options] the CLI's tarball, from {@link packedTarballs}
 */
export async function installPacked(dir, tarball, packageJson, { cli } = {}) {
  mkdirSync(dir, { recursive: true });
  const ours = { "public-hub-sdk": `file:${tarball}`, ...(cli ? { "public-hub-cli": `file:${cli}` } : {}) };
  const pkg = { ...packageJson, dependencies: { ...packageJson.dependencies, ...ours } };
  writeFileSync(join(dir, "package.json"), JSON.stringify(pkg, null, 2));
  await run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: dir, timeout: 300_000, maxBuffer: 64 << 20 });
}

/**
 * Empties `work`, copies test/e2e/consumer to `work/consumer` and installs the tarball there (and
 * msw, the mock's peer). Returns the tarball's path and the consumer directory.
 */
export async function prepareConsumer(work) {
  rmSync(work, { recursive: true, force: true });
  const tarball = await packedTarball();
  const consumer = join(work, "consumer");
  cpSync(join(repo, "test/e2e/consumer"), consumer, { recursive: true });
  await installPacked(consumer, tarball, { name: "hub-consumer", private: true, dependencies: { msw: versionOf("msw") } });
  return { tarball, consumer };
}
