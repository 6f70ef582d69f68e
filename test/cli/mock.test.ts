import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HubClient, ServerError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { rawSign } from "../helpers/raw-sign";
import { runCli, tmpPath } from "./run-cli";
import { startMock } from "./run-mock";

// Real loopback HTTP (no MSW in this file): the mock as a browser or another language sees it.
const demo = { clientId: "pk_alpha_demo", hub: "alpha" };

describe("public-hub mock", () => {
  it("serves the API on a port: the demo hubs and keys printed (fake secrets), CORS for any origin, one log line per request, the ledger over HTTP", async () => {
    const mock = await startMock();
    try {
      expect(mock.output()).toMatch(/^Public Hub API mock listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1 \(CORS: any origin\)\. Ctrl-C stops it\./);
      expect(mock.output()).toContain("Hubs: alpha (Alpha Hub), beta (Beta Hub)");
      expect(mock.output()).toMatch(/pk_alpha_demo\s+alpha\s+demo-secret-alpha/);
      expect(mock.output()).toContain("fake secrets");
      const client = new HubClient({ baseUrl: mock.baseUrl, ...demo, retry: 0 });
      expect(await client.getHub()).toMatchObject({ slug: "alpha", name: "Alpha Hub" });
      const preflight = await fetch(`${mock.baseUrl}/hub/alpha`, { method: "OPTIONS", headers: { origin: "http://localhost:5173", "access-control-request-method": "GET", "access-control-request-headers": "x-api-key" } });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
      const read = await fetch(`${mock.baseUrl}/hub/alpha/leaderboard`, { headers: { "x-api-key": "pk_alpha_demo", origin: "http://elsewhere.test" } });
      expect(read.headers.get("access-control-allow-origin")).toBe("*");
      const server = new HubServerClient({ baseUrl: mock.baseUrl, ...demo, secret: "demo-secret-alpha", retry: 0 });
      await server.awardPoints({ wallet: "0xabc", amount: 7, reason: "quest", ref: "m-1" });
      const ledger = await (await fetch(`${mock.origin}/_mock/ledger`)).json();
      expect(ledger).toEqual([expect.objectContaining({ hub: "alpha", wallet: "0xabc", amount: 7, ref: "m-1" })]);
      expect(mock.output()).toMatch(/^GET \/api\/v1\/hub\/alpha 200 \d+ ms$/m);
      expect(mock.output()).toMatch(/^POST \/api\/v1\/hub\/alpha\/bits\/earn 200 \d+ ms$/m);
      expect(mock.output()).toMatch(/^OPTIONS \/api\/v1\/hub\/alpha 204 \d+ ms$/m);
    } finally {
      expect(await mock.stop()).toBe(0);
    }
    expect(mock.output()).toContain("mock stopped (1 awards were applied).");
    // Stopped means closed: nothing answers on the port any more.
    await expect(fetch(mock.baseUrl)).rejects.toThrow();
  });

  it("hubs, keys and balances from a seed file; a bad seed is a usage error", async () => {
    const seed = tmpPath("seed.json");
    writeFileSync(seed, JSON.stringify({ hubs: { gamma: { config: { name: "Gamma" }, stakers: [{ wallet: "0xg", staked: 5 }], balances: { "0xg": 40 } } }, keys: { pk_gamma: { secret: "gamma-secret", hub: "gamma" } } }));
    const mock = await startMock(["--seed", seed, "--quiet"]);
    try {
      expect(mock.output()).toMatch(/pk_gamma\s+gamma\s+gamma-secret/);
      const client = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_gamma", hub: "gamma", retry: 0 });
      expect(await client.getHolder("0xg")).toMatchObject({ bits: 40 });
      expect(mock.output()).not.toMatch(/^GET /m); // --quiet
    } finally {
      await mock.stop();
    }
    const bad = tmpPath("bad-seed.json");
    writeFileSync(bad, JSON.stringify({ hubs: {}, keys: { pk: { secret: "s", hub: "nowhere" } } }));
    const run = await runCli(["mock", "--seed", bad], { env: {} });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`key "pk" is scoped to hub "nowhere", which the seed does not have`);
    expect((await runCli(["mock", "--failure-rate", "2"], { env: {} })).code).toBe(2);
    expect((await runCli(["mock", "--clock-offset", "-600"], { env: {} })).stderr).toContain("--clock-offset needs a value (write a negative one as --clock-offset=-600)");
  });

  it("faults from flags: a rate limit answering 429, a failure rate, latency, a clock offset", async () => {
    const limited = await startMock(["--quiet", "--rate-limit", "2"]);
    try {
      // The limit is a window of one second: a slow machine may cross a window's edge between two
      // requests, so send until the first 429; the two before it were allowed in its window.
      const statuses: number[] = [];
      while (statuses.length < 20 && !statuses.includes(429)) statuses.push((await fetch(`${limited.baseUrl}/hub/alpha`, { headers: { "x-api-key": "pk_alpha_demo" } })).status);
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(-3, -1)).toEqual([200, 200]);
    } finally {
      await limited.stop();
    }
    const failing = await startMock(["--quiet", "--failure-rate", "1", "--latency", "40", "--clock-offset=-600"]);
    try {
      const started = performance.now();
      const client = new HubClient({ baseUrl: failing.baseUrl, ...demo, retry: 0 });
      await expect(client.getHub()).rejects.toBeInstanceOf(ServerError);
      expect(performance.now() - started).toBeGreaterThanOrEqual(38);
      expect(failing.output()).toContain("Faults: latency 40 ms, 100 % answered 503, server clock -600 s");
      const date = Date.parse((await fetch(failing.baseUrl)).headers.get("date") ?? "");
      expect(Math.abs(date - (Date.now() - 600_000))).toBeLessThan(3_000);
    } finally {
      await failing.stop();
    }
  });

  it("speaks a hub's dialect from flags: envelope, fixtures, duplicate style, error format, announced rate limit, request-id header, signature status", async () => {
    const responses = tmpPath("responses.json");
    writeFileSync(responses, JSON.stringify({ hub: { slug: "alpha", display_name: "Alpha" } }));
    const flags = ["--envelope", "data", "--responses", responses, "--duplicate-style", "409", "--error-format", "problem+json", "--rate-limit", "20", "--rate-limit-headers", "x-ratelimit", "--request-id-header", "Request-Id", "--signature-status", "403"];
    const mock = await startMock(["--quiet", ...flags]);
    try {
      const read = await fetch(`${mock.baseUrl}/hub/alpha`, { headers: { "x-api-key": "pk_alpha_demo" } });
      expect(await read.json()).toEqual({ data: { slug: "alpha", display_name: "Alpha" }, meta: { request_id: "req_mock_000001" } });
      expect([read.headers.get("request-id"), read.headers.get("x-ratelimit-limit"), read.headers.get("x-ratelimit-remaining")]).toEqual(["req_mock_000001", "20", "19"]);
      const body = JSON.stringify({ wallet: "0xabc", amount: 7, reason: "quest", ref: "d-1" });
      const send = (secret: string) => {
        const timestamp = String(Math.floor(Date.now() / 1000));
        const signature = rawSign(secret, timestamp, "POST", "/api/v1/hub/alpha/bits/earn", body);
        return fetch(`${mock.baseUrl}/hub/alpha/bits/earn`, { method: "POST", body, headers: { "x-api-key": "pk_alpha_demo", "content-type": "application/json", "x-api-timestamp": timestamp, "x-api-signature": signature } });
      };
      expect((await send("wrong")).status).toBe(403);
      expect((await send("demo-secret-alpha")).status).toBe(200);
      const again = await send("demo-secret-alpha");
      expect([again.status, again.headers.get("content-type"), ((await again.json()) as { type: string }).type]).toEqual([409, "application/problem+json", `${mock.origin}/problems/duplicate-ref`]);
    } finally {
      await mock.stop();
    }
    const bad = await runCli(["mock", "--duplicate-style", "410"], { env: {} });
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--duplicate-style must be one of flag, replay-header, 409, 208, not "410"')]);
    writeFileSync(responses, JSON.stringify({ holders: {} }));
    expect((await runCli(["mock", "--responses", responses], { env: {} })).stderr).toContain("needs { operation: fixture } with operations among discovery, hub, leaderboard, holder, stakeStatus, award");
  });

  it("the CLI's own commands run against it (what the README shows)", async () => {
    const mock = await startMock(["--quiet"]);
    try {
      const env = { HUB_BASE_URL: mock.baseUrl, HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha" };
      expect((await runCli(["doctor"], { env })).code).toBe(0);
      const path = tmpPath("awards.csv");
      writeFileSync(path, "wallet,amount,reason,ref\n0x1,5,quest,r-1\n0x2,5,quest,r-2\n");
      expect((await runCli(["award", "--file", path], { env })).code).toBe(0);
      expect(await (await fetch(`${mock.origin}/_mock/ledger`)).json()).toHaveLength(2);
    } finally {
      await mock.stop();
    }
  });
});
