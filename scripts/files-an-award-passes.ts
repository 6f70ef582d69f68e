// Which source files one award passes through, measured (docs/how-a-call-flows.md quotes it, and
// test/build/call-flows.test.ts checks that it still says so): an award answered 503 (retried),
// then 401 for a timestamp outside the window (re-sent in the hub's time), then applied. Run with
// V8's coverage on: `NODE_V8_COVERAGE=<dir> npx tsx scripts/files-an-award-passes.ts <dir>`; it
// prints, as JSON, the files of src/ in which a function ran during the award (the client's
// construction left out: coverage is taken, and reset, before the award).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { takeCoverage } from "node:v8";
import { HubServerClient } from "../src/server/index";

const dir = process.argv[2] ?? process.env.NODE_V8_COVERAGE;
if (!dir || !process.env.NODE_V8_COVERAGE) throw new Error("run with NODE_V8_COVERAGE=<dir>, and the same <dir> as its argument");
const hubAhead = 3_600_000;
let sent = 0;
const fetch = async (_url: unknown, init?: RequestInit) => {
  sent++;
  if (sent === 1) return new Response("busy", { status: 503 });
  const date = new Date(Date.now() + hubAhead).toUTCString();
  const timestamp = Number(new Headers(init?.headers).get("x-api-timestamp"));
  if (Math.abs(timestamp * 1000 - (Date.now() + hubAhead)) > 300_000) return Response.json({ error: { code: "timestamp_out_of_window" } }, { status: 401, headers: { date } });
  return Response.json({ ref: "r-1", awarded: 1, duplicate: false }, { headers: { date } });
};
const server = new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: fetch as typeof globalThis.fetch, retry: { backoff: 1 } });
takeCoverage();
const before = new Set(readdirSync(dir));
const { attempts } = await server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).withResponse();
takeCoverage();
if (attempts !== 3) throw new Error(`the award took ${attempts} attempts, not the 3 measured`);
const src = fileURLToPath(new URL("../src/", import.meta.url));
const files = new Set<string>();
for (const name of readdirSync(dir).filter((name) => !before.has(name))) {
  const { result } = JSON.parse(readFileSync(join(dir, name), "utf8")) as { result: Array<{ url: string; functions: Array<{ functionName: string; ranges: Array<{ count: number }> }> }> };
  for (const script of result) {
    if (!script.url.startsWith("file://") || !fileURLToPath(script.url).startsWith(src)) continue;
    if (script.functions.some((fn) => fn.functionName !== "" && fn.ranges[0]!.count > 0)) files.add(`src/${fileURLToPath(script.url).slice(src.length)}`);
  }
}
console.log(JSON.stringify([...files].sort()));
