// Runs the bundled worker in workerd through Miniflare (needs Node >= 22) and prints its results.
import { readFileSync } from "node:fs";
import { Miniflare } from "miniflare";

const [workerPath, api] = process.argv.slice(2);
const mf = new Miniflare({ modules: true, script: readFileSync(workerPath, "utf8"), compatibilityDate: "2025-09-01" });
try {
  const response = await mf.dispatchFetch(`http://worker.local/?api=${encodeURIComponent(api)}`);
  console.log(await response.text());
} finally {
  await mf.dispose();
}
