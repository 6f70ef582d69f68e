// What each module costs the browser bundle of `import { HubClient } from "public-hub-sdk"`, in
// gzip bytes: gzip(all) − gzip(all without that module), from the source (esbuild, browser,
// minify, gzip level 9: as test/e2e/run.mjs measures the packed build, within ~100 B; tsconfig paths are ignored, as a consumer's build does). Costs do not
// add up exactly (gzip shares repeats across modules). `--lines` lists the costliest lines of the
// SDK's own code instead. Run: `node bench/bundle-modules.mjs [--lines]`.
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
const contents = 'import { HubClient } from "./src/index.ts"; globalThis.HubClient = HubClient;';
const gz = (text) => gzipSync(text, { level: 9 }).length;

const minified = await esbuild.build({ stdin: { contents, resolveDir: root, loader: "ts" }, bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "error", tsconfigRaw: {} });
console.log(`HubClient, browser, min+gz: ${gz(minified.outputFiles[0].text)} B`);

// Minified but for whitespace, so that each module keeps its "// path" heading and each statement its line.
const readable = await esbuild.build({ stdin: { contents, resolveDir: root, loader: "ts" }, bundle: true, minifyIdentifiers: true, minifySyntax: true, legalComments: "none", write: false, format: "esm", platform: "browser", logLevel: "error", tsconfigRaw: {} });
const lines = [];
let module = "";
for (const line of readable.outputFiles[0].text.split("\n")) {
  const heading = line.match(/^\/\/ \S*?((?:src|node_modules)\/\S+)$/);
  if (heading) module = heading[1];
  else if (line.trim() && !/^\s*(\/\*|\*|\/\/)/.test(line)) lines.push({ module, text: line.trim() });
}
const without = (keep) => gz(lines.filter(keep).map((l) => l.text).join("\n"));
const all = without(() => true);

if (process.argv.includes("--lines")) {
  const rows = lines.map((line) => ({ ...line, cost: all - without((other) => other !== line) })).filter((row) => row.module.startsWith("src/"));
  for (const row of rows.sort((a, b) => b.cost - a.cost).slice(0, Number(process.env.TOP ?? 60))) console.log(String(row.cost).padStart(5), row.module.padEnd(34), row.text.slice(0, 110));
} else {
  const modules = [...new Set(lines.map((l) => l.module))];
  const rows = modules.map((name) => ({ name, cost: all - without((l) => l.module !== name) }));
  for (const row of rows.sort((a, b) => b.cost - a.cost)) console.log(String(row.cost).padStart(6), row.name);
  const own = rows.filter((r) => r.name.startsWith("src/")).reduce((sum, r) => sum + r.cost, 0);
  console.log(`SDK modules ${own} B, ky ${rows.filter((r) => r.name.includes("/ky/")).reduce((sum, r) => sum + r.cost, 0)} B (each alone; shared repeats counted in neither)`);
}
