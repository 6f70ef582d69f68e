import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "tsup";
import { beforeAll, describe, expect, it } from "vitest";
import config from "../../tsup.config";

// The package as built (tsup's own config; no declarations, which play no part at run time), in
// the repository's ignored .tmp so that its imports resolve to the repository's node_modules.
const repo = fileURLToPath(new URL("../..", import.meta.url));
const out = join(repo, ".tmp/built-package");

beforeAll(async () => {
  await build({ ...(config as object), dts: false, sourcemap: false, outDir: out, silent: true });
}, 60_000);

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else yield path;
  }
}

// Runs in a fresh Node: every ESM resolution of "@opentelemetry/…" throws, and CJS loads are read
// from require.cache. The otel entry is imported last, to show the check sees an import.
const child = `
import { register, createRequire } from "node:module";
const seen = [];
register("data:text/javascript," + encodeURIComponent('export async function resolve(s, c, next) { if (s.startsWith("@opentelemetry/")) throw new Error("imported " + s); return next(s, c); }'));
const [dist] = process.argv.slice(-1);
const root = await import(dist + "/index.js");
const server = await import(dist + "/server/index.js");
const fetch = async () => new Response('{"slug":"alpha"}', { headers: { "content-type": "application/json" } });
await new root.HubClient({ baseUrl: "https://hub.example.com", clientId: "pk", hub: "alpha", fetch }).getHub();
await new server.HubServerClient({ baseUrl: "https://hub.example.com", clientId: "pk", hub: "alpha", secret: "s", fetch }).awardPoints({ wallet: "0xabc", amount: 1, reason: "r", ref: "r1" });
await import(dist + "/mock/index.js");
const require = createRequire(import.meta.url);
require(new URL(dist + "/index.cjs").pathname);
require(new URL(dist + "/server/index.cjs").pathname);
const cjs = Object.keys(require.cache).filter((path) => path.includes("@opentelemetry"));
let otel = "not imported";
try { await import(dist + "/otel/index.js"); otel = "imported"; } catch (error) { otel = error.message; }
console.log(JSON.stringify({ cjs, otel }));
`;

describe("the built package without telemetry", () => {
  it("only the otel entry's files name @opentelemetry/api", () => {
    const naming = [...files(out)].filter((path) => readFileSync(path, "utf8").includes("@opentelemetry/")).map((path) => path.slice(out.length + 1));
    expect(naming.sort()).toEqual(["otel/index.cjs", "otel/index.js"]);
  });

  it("loading the root, server and mock entries and making calls imports nothing of @opentelemetry", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", child, pathToFileURL(out).href], { cwd: repo, timeout: 30_000 });
    const result = JSON.parse(stdout.trim().split("\n").pop()!);
    expect(result.cjs).toEqual([]);
    // The check works: the otel entry's import is seen (and refused).
    expect(result.otel).toBe("imported @opentelemetry/api");
  });
});
