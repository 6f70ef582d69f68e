// The peer table: per-call overhead of HTTP clients and SDKs against the same keep-alive loopback
// server (bench/server.mjs, its own process), GET with a JSON answer, at concurrency 1 and 16.
// Every peer runs in every round for the same time, in a rotated order (reversed every other
// round), after a full GC; a round's ratio is the peer's calls/s ÷ bare fetch's calls/s in that
// round, and the table shows the median over rounds (min–max). Client CPU per call is this
// process's user + system time during the peer's slot ÷ its calls (the server's CPU is not in it),
// which the neighbours on a shared machine move much less than wall time.
// The peers are devDependencies used here only. Each runs with its defaults except for what
// pointing it at the bench server needs (base URL, a fake key); "ky floor" is ky with its two
// per-request features off (`timeout: false, retry: 0`): the least any ky-based client can cost.
import { fork } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { fileURLToPath } from "node:url";
import axios from "axios";
import { request as octokitRequest } from "@octokit/request";
import ky from "ky";
import OpenAI from "openai";
import Stripe from "stripe";
import { HubClient } from "../dist/index.js";
import { HubServerClient } from "../dist/server/index.js";

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Runs `fn(slot)` in `concurrency` loops for `ms`; calls/s and CPU µs per call. */
async function slot(fn, concurrency, ms) {
  globalThis.gc?.();
  let calls = 0;
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < end) {
        await fn(i);
        calls++;
      }
    }),
  );
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { perSecond: (calls / wall) * 1000, cpuPerCall: (used.user + used.system) / calls };
}

/** Every peer in every round, rotated; per peer the median ratio to `baseline` and CPU per call. */
async function table(peers, { concurrency, rounds, ms, baseline }) {
  const names = Object.keys(peers);
  const runs = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) await slot(peers[name], concurrency, ms); // warm-up: JIT, connections
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]);
    if (round % 2 === 1) order.reverse();
    for (const name of order) runs[name].push(await slot(peers[name], concurrency, ms));
  }
  const result = {};
  for (const name of names) {
    const ratios = runs[name].map((run, i) => run.perSecond / runs[baseline][i].perSecond);
    const cpuRatios = runs[name].map((run, i) => runs[baseline][i].cpuPerCall / run.cpuPerCall);
    result[name] = {
      perSecond: median(runs[name].map((run) => run.perSecond)),
      ratio: median(ratios),
      range: [Math.min(...ratios), Math.max(...ratios)],
      cpuPerCall: median(runs[name].map((run) => run.cpuPerCall)),
      cpuRatio: median(cpuRatios),
      runs: runs[name],
    };
  }
  // The goal rows compare two peers round by round too (same round, same machine state).
  result.pair = (a, b, key = "perSecond") => median(runs[a].map((run, i) => run[key] / runs[b][i][key]));
  return result;
}

const fmt = (n) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));

function render(title, labels, byConcurrency, baseline) {
  const [c1, c16] = byConcurrency;
  const lines = [
    title,
    "",
    "| client | c=1 calls/s | c=1 ÷ fetch | c=1 CPU µs/call | c=16 calls/s | c=16 ÷ fetch | c=16 CPU µs/call |",
    "|---|---|---|---|---|---|---|",
  ];
  for (const [name, label] of Object.entries(labels)) {
    const cell = (r) => {
      const m = r[name];
      const ratio = name === baseline ? "1.00× (baseline)" : `**${m.ratio.toFixed(2)}×** (${m.range[0].toFixed(2)}–${m.range[1].toFixed(2)})`;
      return `${fmt(m.perSecond)} | ${ratio} | ${m.cpuPerCall.toFixed(0)}`;
    };
    lines.push(`| ${label} | ${cell(c1)} | ${cell(c16)} |`);
  }
  return lines;
}

/**
 * The GET peers, each as `(slot) => Promise` of the parsed body. Every request asks for another
 * wallet's holder status (a counter), so no client can share or cache one answer for another.
 */
export async function readPeers(baseUrl) {
  let n = 0;
  const wallet = () => `0x${(n++).toString(16).padStart(40, "0")}`;
  const url = () => `${baseUrl}/hub/alpha/holder/${wallet()}`;
  const headers = { "x-api-key": "pk_bench", accept: "application/json" };
  // undici is imported after the first fetch: on import it installs its own Agent as the global
  // dispatcher unless fetch has already installed Node's, which would change the fetch baseline.
  await (await fetch(url(), { headers })).json();
  const { request, Agent } = await import("undici");
  const dispatcher = new Agent();
  const kyFloor = ky.create({ timeout: false, retry: 0, headers });
  const sdk = new HubClient({ baseUrl, clientId: "pk_bench", hub: "alpha" });
  const openai = new OpenAI({ apiKey: "sk-bench", baseURL: baseUrl });
  const octokit = octokitRequest.defaults({ baseUrl, headers: { "x-api-key": "pk_bench" } });
  const instance = axios.create({ baseURL: baseUrl, headers });
  const stripe = new Stripe("sk_test_bench", { host: "127.0.0.1", port: Number(new URL(baseUrl).port), protocol: "http", telemetry: false });
  const stripePath = `${new URL(baseUrl).pathname}/hub/alpha/holder`;
  return {
    fetch: async () => {
      const res = await fetch(url(), { headers });
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    },
    undici: async () => {
      const res = await request(url(), { headers, dispatcher });
      if (res.statusCode !== 200) throw new Error(String(res.statusCode));
      return res.body.json();
    },
    ky: () => ky.get(url(), { headers }).json(),
    kyFloor: () => kyFloor.get(url()).json(),
    sdk: () => sdk.getHolder(wallet()),
    openai: () => openai.get(`/hub/alpha/holder/${wallet()}`),
    octokit: async () => (await octokit("GET /hub/{hub}/holder/{wallet}", { hub: "alpha", wallet: wallet() })).data,
    axios: async () => (await instance.get(`/hub/alpha/holder/${wallet()}`)).data,
    stripe: () => stripe.rawRequest("GET", `${stripePath}/${wallet()}`),
  };
}

const READ_LABELS = {
  fetch: "bare `fetch` + `res.json()`",
  undici: "`undici.request` + `body.json()`",
  ky: "ky alone (`ky.get().json()`, defaults)",
  kyFloor: "ky floor (`timeout: false, retry: 0`)",
  sdk: "**this SDK** (`getHolder`, defaults)",
  openai: "openai (`client.get`)",
  octokit: "`@octokit/request`",
  axios: "axios (node:http adapter)",
  stripe: "stripe (`rawRequest`, node:http)",
};

/** Signed awards: the SDK against the same award hand-signed (createHmac) and sent by fetch or ky. */
export function awardPeers(baseUrl, secret) {
  const key = createHash("sha256").update(secret).digest("hex"); // the signing key, derived once
  const path = new URL(`${baseUrl}/hub/alpha/bits/earn`).pathname;
  const kyFloor = ky.create({ timeout: false, retry: 0 });
  const backend = new HubServerClient({ baseUrl, clientId: "pk_bench", hub: "alpha", secret });
  let n = 0;
  const handSigned = (send) => async () => {
    const body = JSON.stringify({ wallet: "0xabc", amount: 10, reason: "quest", ref: `raw-${n++}` });
    const ts = String(Math.floor(Date.now() / 1000));
    const signature = createHmac("sha256", key).update(`${ts}.POST.${path}.${body}`).digest("hex");
    const headers = { "x-api-key": "pk_bench", "x-api-timestamp": ts, "x-api-signature": signature, "content-type": "application/json", accept: "application/json" };
    return send(`${baseUrl}/hub/alpha/bits/earn`, body, headers);
  };
  return {
    fetch: handSigned(async (url, body, headers) => {
      const res = await fetch(url, { method: "POST", body, headers });
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    }),
    kyFloor: handSigned((url, body, headers) => kyFloor.post(url, { body, headers }).json()),
    sdk: () => backend.awardPoints({ wallet: "0xabc", amount: 10, reason: "quest", ref: `sdk-${n++}` }),
  };
}

const AWARD_LABELS = {
  fetch: "hand-written `fetch` + `createHmac`",
  kyFloor: "ky floor + `createHmac`",
  sdk: "**this SDK** (`awardPoints`)",
};

/** Markdown of both peer tables and the goals' verdicts. */
export async function peerSection({ baseUrl, secret, smoke }) {
  const rounds = smoke ? 2 : 9;
  const ms = smoke ? 40 : 300;
  const reads = await readPeers(baseUrl);
  const readRuns = [];
  for (const concurrency of [1, 16]) readRuns.push(await table(reads, { concurrency, rounds, ms, baseline: "fetch" }));
  const awards = awardPeers(baseUrl, secret);
  const awardRuns = [];
  for (const concurrency of [1, 16]) awardRuns.push(await table(awards, { concurrency, rounds, ms, baseline: "fetch" }));

  const verdicts = [];
  for (const [i, concurrency] of [1, 16].entries()) {
    const r = readRuns[i];
    const vsFloor = r.pair("sdk", "kyFloor");
    const cpuVsFloor = r.pair("kyFloor", "sdk", "cpuPerCall");
    const behind = ["openai", "octokit", "axios"].filter((peer) => r.pair("sdk", peer) <= 1);
    const cpuVsKy = r.pair("sdk", "ky", "cpuPerCall");
    const vsOpenai = r.pair("sdk", "openai");
    verdicts.push(
      `| GET, c=${concurrency} | SDK CPU per call ÷ ky alone (defaults): **${cpuVsKy.toFixed(2)}×** | ≤ 1.05× ${cpuVsKy <= 1.05 ? "✅" : "❌"} |`,
      ...(concurrency === 1 ? [`| GET, c=1 | SDK ÷ openai calls/s: **${vsOpenai.toFixed(2)}×** | ≥ 1.0× ${vsOpenai >= 1 ? "✅" : "❌"} |`] : []),
      `| GET, c=${concurrency} | SDK ÷ ky floor: **${vsFloor.toFixed(2)}×** calls/s, **${cpuVsFloor.toFixed(2)}×** calls per CPU second | ≥ 0.95× ${vsFloor >= 0.95 ? "✅" : "❌"} |`,
      `| GET, c=${concurrency} | SDK ÷ openai ${r.pair("sdk", "openai").toFixed(2)}×, ÷ octokit ${r.pair("sdk", "octokit").toFixed(2)}×, ÷ axios ${r.pair("sdk", "axios").toFixed(2)}× | ahead of all three ${behind.length === 0 ? "✅" : `❌ (${behind.join(", ")})`} |`,
    );
    const a = awardRuns[i];
    const awardVsFloor = a.pair("sdk", "kyFloor");
    verdicts.push(
      `| signed award, c=${concurrency} | SDK ÷ hand-signed ky floor: **${awardVsFloor.toFixed(2)}×** calls/s, **${a.pair("kyFloor", "sdk", "cpuPerCall").toFixed(2)}×** per CPU second; ÷ hand-signed fetch ${a.pair("sdk", "fetch").toFixed(2)}× | ≥ 0.95× of ky floor ${awardVsFloor >= 0.95 ? "✅" : "❌"} |`,
    );
  }
  return [
    ...render(`### Peers: GET with a JSON answer, keep-alive loopback (${rounds} rounds × ${ms} ms per peer, interleaved${smoke ? "; smoke: not a measurement" : ""})`, READ_LABELS, readRuns, "fetch"),
    "",
    ...render("### Signed awards (POST, HMAC-SHA256), same rounds", AWARD_LABELS, awardRuns, "fetch"),
    "",
    "| goal | measured (median of per-round ratios) | verdict |",
    "|---|---|---|",
    ...verdicts,
  ];
}

// `node --expose-gc bench/peers.mjs [--smoke]`: these tables alone (needs `npm run build` first).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const child = fork(new URL("./server.mjs", import.meta.url), { stdio: "inherit" });
  const { port } = await new Promise((resolve) => child.once("message", resolve));
  try {
    console.log((await peerSection({ baseUrl: `http://127.0.0.1:${port}/api/v1`, secret: "bench-secret", smoke: process.argv.includes("--smoke") })).join("\n"));
  } finally {
    child.kill();
  }
}
