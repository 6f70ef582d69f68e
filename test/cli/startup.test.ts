import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The built bin, as npm runs it: what it loads depends on the chunks tsup makes, not on the source.
const cli = fileURLToPath(new URL("../../cli", import.meta.url));
// One level under cli/, so the bin's `../package.json` and `public-hub-sdk` resolve as from dist/.
const out = join(cli, `.startup-test-${process.pid}`);
const hook = fileURLToPath(new URL("./record-packages.mjs", import.meta.url));
const records = mkdtempSync(join(tmpdir(), "hub-cli-startup-"));

beforeAll(() => {
  // The built CLI imports the built SDK; a fresh clone has none, so build it as `npm run build:sdk` does.
  const root = join(cli, "..");
  if (!existsSync(join(root, "dist/index.js"))) execFileSync(join(root, "node_modules/.bin/tsup"), ["--silent"], { cwd: root, stdio: "pipe" });
  execFileSync(join(root, "node_modules/.bin/tsup"), ["--out-dir", out, "--silent"], { cwd: cli, stdio: "pipe" });
}, 120_000);
afterAll(() => {
  rmSync(out, { recursive: true, force: true });
  rmSync(records, { recursive: true, force: true });
});

let n = 0;
/** The packages one run of the built CLI imported, and its exit status. */
function packagesLoaded(...args: string[]) {
  const file = join(records, `${n++}.txt`);
  const run = spawnSync(process.execPath, ["--import", hook, join(out, "index.js"), ...args], { env: { ...process.env, RECORD_PACKAGES: file }, encoding: "utf8", timeout: 20_000 });
  const packages = new Set(existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : []);
  return { code: run.status, packages };
}

describe("the CLI loads a command's packages only when that command runs", () => {
  it("--version and --help load no package at all: no SDK, no msw", () => {
    for (const args of [["--version"], ["--help"]]) expect(packagesLoaded(...args)).toEqual({ code: 0, packages: new Set() });
  });

  it("a read and award load the SDK but not msw; only mock loads msw", () => {
    // A misspelt flag: the command's module is loaded, then it stops before any request.
    const read = packagesLoaded("hub", "--nope");
    expect(read.code).toBe(2);
    expect(read.packages).toContain("public-hub-sdk");
    expect([...read.packages].filter((name) => /^(msw|cli-progress|csv-parse)$/.test(name))).toEqual([]);
    const award = packagesLoaded("award", "--nope");
    expect(award.code).toBe(2);
    expect(award.packages).toContain("csv-parse");
    expect(award.packages).not.toContain("msw");
    const mock = packagesLoaded("mock", "--nope");
    expect(mock.code).toBe(2);
    expect(mock.packages).toContain("msw");
  });
});
