// What the tarball's built files are, checked on a real build of the SDK's and the CLI's tsup
// configs (JavaScript and source maps; the declaration files, slow to build, are left out), written
// under .tmp/ so that `dist/` is left alone.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";
import { build, type Options } from "tsup";
import { beforeAll, describe, expect, it } from "vitest";
import sdkConfig from "../../tsup.config";
import cliConfig from "../../cli/tsup.config";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const out = join(repo, ".tmp/packaging");

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)]));

async function buildInto(config: unknown, cwd: string, outDir: string): Promise<string[]> {
  const options = config as Options;
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    await build({ ...options, dts: false, outDir, silent: true, clean: true });
  } finally {
    process.chdir(previous);
  }
  return files(outDir);
}

let sdk: string[] = [];
let cli: string[] = [];
beforeAll(async () => {
  sdk = await buildInto(sdkConfig, repo, join(out, "sdk"));
  cli = await buildInto(cliConfig, join(repo, "cli"), join(out, "cli"));
}, 120_000);

describe("the built SDK", () => {
  it("imports zod from the dependency, as its users do: no zod code bundled in", () => {
    const js = sdk.filter((path) => /\.c?js$/.test(path));
    const importers = js.filter((path) => /(?:from\s*|require\()\s*["']zod\/mini["']/.test(readFileSync(path, "utf8")));
    expect(importers.length).toBeGreaterThan(0);
    // zod's own source, had it been bundled: its class factory and its locale tables.
    for (const path of js) expect([relative(out, path), /function \$constructor\(|Invalid input: expected/.test(readFileSync(path, "utf8"))]).toEqual([relative(out, path), false]);
  });
});

describe("an app's bundle of the server entry", () => {
  it("holds only the zod code the SDK uses: none of zod's locales but English", async () => {
    const entry = join(out, "sdk/server/index.js");
    // The file journal's `node:fs` (loaded only for a journal path) is the runtime's, never bundled.
    const result = await esbuild.build({ entryPoints: [entry], bundle: true, write: false, format: "esm", platform: "browser", metafile: true, logLevel: "error", external: ["fs/promises", "path", "node:*"] });
    // What reached the output (every file esbuild read is in `metafile.inputs`, shaken or not).
    const output = Object.values(result.metafile.outputs)[0]!;
    const inputs = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path);
    expect(inputs.some((path) => path.includes("node_modules/zod/"))).toBe(true);
    expect(inputs.filter((path) => /zod\/v4\/locales\/(?!en\.)/.test(path))).toEqual([]);
  });
});

describe("source maps in the tarball stand alone", () => {
  it("every map of the SDK and the CLI carries the text of every source it names", () => {
    const maps = [...sdk, ...cli].filter((path) => path.endsWith(".map"));
    expect(maps.length).toBeGreaterThan(0);
    for (const path of maps) {
      const map = JSON.parse(readFileSync(path, "utf8")) as { sources: string[]; sourcesContent?: Array<string | null> };
      const missing = map.sources.filter((_, i) => typeof map.sourcesContent?.[i] !== "string");
      expect([relative(out, path), missing]).toEqual([relative(out, path), []]);
      // No path of the machine that built it (tsup's CommonJS splitting writes absolute ones).
      const { sourcesContent: _texts, ...paths } = map;
      expect([relative(out, path), JSON.stringify(paths).includes(repo)]).toEqual([relative(out, path), false]);
    }
  });
});
