// Cold start: what a serverless function or an edge worker pays for the import on every start,
// measured as whole processes. Each script is `node --input-type=module -e 'await import(X)'`
// run from the package's root (so `public-hub-sdk` resolves to this package's own `dist/`, as a
// user's install would). The scripts run in turn — empty, ky, root, server, then the next set in
// a rotated order — and each ratio is taken set by set, so a neighbour slowing the machine for a
// while slows both sides of a ratio. The verdict is the median ratio of CPU time (user + system,
// the child's own `process.cpuUsage()` when it exits): this shared 2-core machine moves wall time
// far more than CPU time. Wall time (spawn to exit, seen from here) is shown too.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
// Written by the child at exit: its CPU time since it started, start-up and import included.
const REPORT = 'process.on("exit", () => { const u = process.cpuUsage(); process.stdout.write(String(u.user + u.system)); });';

/** The processes compared; `ky` is the yardstick the goals are set against. */
export const SCRIPTS = {
  empty: { label: "empty `node`", code: "" },
  ky: { label: '`import("ky")` alone', code: 'await import("ky");' },
  // The server entry's dependencies, imported alone: its own goal is set against them (issue 29).
  deps: { label: '`import("ky")` + `import("zod/mini")`', code: 'await import("ky"); await import("zod/mini");' },
  root: { label: '`import("public-hub-sdk")`', code: 'await import("public-hub-sdk");', goal: 1.05 },
  // Issue 18: the server entry, zod included, ≤ 1.25× ky alone and below openai in the same run.
  server: { label: '`import("public-hub-sdk/server")`', code: 'await import("public-hub-sdk/server");', goal: 1.25, belowOpenai: true, overDeps: 1.1 },
  openai: { label: '`import("openai")`', code: 'await import("openai");' },
};

/** One process: its CPU time (ms, as it reports) and its wall time (ms, spawn to exit). */
export function runOnce(code) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--input-type=module", "-e", `${code} ${REPORT}`], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const wall = performance.now() - started;
      if (status !== 0 || !/^\d+$/.test(out)) reject(new Error(`cold start of ${code || "empty node"} failed (${status}): ${out}`));
      else resolve({ cpu: Number(out) / 1000, wall });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * `sets` sets of one process per script (after one set of warm-up: disk cache), rotated order.
 * Returns per script its median CPU and wall times, and per SDK script its median ratio to ky.
 */
export async function measureColdStart(sets) {
  const names = Object.keys(SCRIPTS);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await runOnce(SCRIPTS[name].code); // warm-up
  for (let set = 0; set < sets; set++) {
    const order = names.map((_, i) => names[(i + set) % names.length]);
    if (set % 2 === 1) order.reverse();
    for (const name of order) runs[name].push(await runOnce(SCRIPTS[name].code));
  }
  const result = {};
  for (const name of names) {
    const ratio = (key) => runs[name].map((run, i) => run[key] / runs.ky[i][key]);
    result[name] = {
      cpu: median(runs[name].map((run) => run.cpu)),
      wall: median(runs[name].map((run) => run.wall)),
      cpuRatio: median(ratio("cpu")),
      cpuRange: [Math.min(...ratio("cpu")), Math.max(...ratio("cpu"))],
      wallRatio: median(ratio("wall")),
      cpuOverDeps: median(runs[name].map((run, i) => run.cpu / runs.deps[i].cpu)),
      overEmpty: median(runs[name].map((run, i) => run.cpu - runs.empty[i].cpu)),
    };
  }
  return result;
}

/** The cold-start table in markdown. */
export async function coldStartSection({ smoke }) {
  const sets = smoke ? 3 : 40;
  const r = await measureColdStart(sets);
  const lines = [
    `### Cold start (whole processes, ${sets} interleaved sets${smoke ? ", smoke: not a measurement" : ""})`,
    "",
    "Ratio = this process ÷ `ky` alone in the same set; median over sets (min–max). CPU = user + system of the child.",
    "",
    "| process | CPU ms (median) | above empty node | wall ms (median) | CPU ÷ ky alone | wall ÷ ky alone | goal (CPU) |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [name, script] of Object.entries(SCRIPTS)) {
    const m = r[name];
    let goal = script.goal === undefined ? "—" : `≤ ${script.goal}× ${m.cpuRatio <= script.goal ? "✅" : "❌"}`;
    if (script.belowOpenai) goal += `; below openai ${m.cpuRatio < r.openai.cpuRatio ? "✅" : "❌"}`;
    if (script.overDeps) goal += `; ÷ its dependencies alone **${m.cpuOverDeps.toFixed(2)}×** ≤ ${script.overDeps}× ${m.cpuOverDeps <= script.overDeps ? "✅" : "❌"}`;
    lines.push(`| ${script.label} | ${m.cpu.toFixed(1)} | ${name === "empty" ? "—" : `+${m.overEmpty.toFixed(1)}`} | ${m.wall.toFixed(1)} | **${m.cpuRatio.toFixed(2)}×** (${m.cpuRange[0].toFixed(2)}–${m.cpuRange[1].toFixed(2)}) | ${m.wallRatio.toFixed(2)}× | ${goal} |`);
  }
  return lines;
}

// `node bench/cold-start.mjs [--smoke]`: this table alone (needs `npm run build` first).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log((await coldStartSection({ smoke: process.argv.includes("--smoke") })).join("\n"));
}
