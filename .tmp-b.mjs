import * as esbuild from "esbuild"; import { gzipSync } from "node:zlib";
const r = await esbuild.build({ stdin: { contents: 'import { HubClient } from "./src/index.ts"; globalThis.HubClient = HubClient;', resolveDir: process.cwd() }, bundle: true, minify: true, write: false, format: "esm", platform: "browser", logLevel: "error", metafile: true, tsconfigRaw: {} });
console.log((gzipSync(r.outputFiles[0].text, {level: 9}).length/1024).toFixed(2), "KB");
const out = Object.values(r.metafile.outputs)[0];
for (const [f, i] of Object.entries(out.inputs).sort((a,b)=>b[1].bytesInOutput-a[1].bytesInOutput).slice(0,12)) console.log(i.bytesInOutput, f);
import { writeFileSync } from "node:fs"; writeFileSync("/tmp/root.min.js", r.outputFiles[0].text);
