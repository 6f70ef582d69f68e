import { createHash, createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHubMock, type HubMock } from "public-hub-sdk/mock";
import { mockServer } from "../../cli/src/commands/mock";
import { runCli } from "./run-cli";
import { startMock } from "./run-mock";

// Real loopback servers (no MSW in this file): a server that does not answer must really not answer.
let mock: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  mock = await startMock(["--quiet"]);
});
afterAll(() => mock.stop());

const env = (overrides: Record<string, string | undefined> = {}) => ({
  HUB_BASE_URL: mock.baseUrl,
  HUB_CLIENT_ID: "pk_alpha_demo",
  HUB_SLUG: "alpha",
  HUB_SECRET: "demo-secret-alpha",
  ...overrides,
});
const checksOf = async (overrides: Record<string, string | undefined> = {}) => {
  const run = await runCli(["doctor", "--json"], { env: env(overrides) });
  const { checks, ok } = JSON.parse(run.stdout) as { ok: boolean; checks: Array<{ name: string; status: string; detail: string }> };
  return { code: run.code, ok, byName: Object.fromEntries(checks.map((check) => [check.name, check])), run };
};

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; baseUrl: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1` };
}

describe("public-hub doctor: ✓ only for what it checked", () => {
  it("a good setup: every check passes, and the secret is proven by two unappliable probes", async () => {
    const { code, byName, run } = await checksOf();
    expect(code).toBe(0);
    expect(Object.keys(byName)).toEqual(["settings", "discovery", "key and hub scope", "secret", "clock skew"]);
    expect(byName.settings!.status).toBe("info");
    expect(byName.secret).toMatchObject({ status: "ok" });
    expect(byName.secret!.detail).toContain("Proves: the secret matches key pk_alpha_demo. Does not prove: that a real award would be valid.");
    expect(byName.secret!.detail).toContain("a random key got 401 invalid_signature, one signed with HUB_SECRET got 400 invalid_award");
    expect(run.stdout).not.toContain("demo-secret-alpha");
    const ledger = await (await fetch(`${mock.origin}/_mock/ledger`)).json();
    expect(ledger).toEqual([]); // nothing was awarded
    const human = await runCli(["doctor"], { env: env() });
    expect(human.stdout).toMatch(/^· settings: /m);
    expect(human.stdout).toMatch(/^✓ secret: /m);
    expect(human.stdout).toContain("doctor: 4 passed, 0 failed, 0 not checked");
  });

  it("a wrong secret fails doctor (it used to show four ✓ and exit 0)", async () => {
    const { code, byName } = await checksOf({ HUB_SECRET: "wrong" });
    expect(code).toBe(1);
    expect(byName.secret).toMatchObject({ status: "failed" });
    expect(byName.secret!.detail).toMatch(/^the server refused the signature made with HUB_SECRET: it does not belong to key pk_alpha_demo/);
    expect((await runCli(["doctor"], { env: env({ HUB_SECRET: "wrong" }) })).stdout).toMatch(/^✗ secret: /m);
  });

  it("no key: the secret is 'not checked', never ✓, and doctor still passes what it checked", async () => {
    const { code, byName, run } = await checksOf({ HUB_SECRET: undefined });
    expect(code).toBe(0);
    expect(byName.secret).toMatchObject({ status: "not checked" });
    const human = await runCli(["doctor"], { env: env({ HUB_SECRET: undefined }) });
    expect(human.stdout).toMatch(/^– secret: not checked|^– secret: no key given/m);
    expect(human.stdout).toContain("doctor: 3 passed, 0 failed, 1 not checked");
    expect(run.stdout).not.toContain("✓ secret");
  });

  it("a key of another hub fails the scope, and then the secret is not checked", async () => {
    const { code, byName } = await checksOf({ HUB_SLUG: "beta" });
    expect(code).toBe(1);
    expect(byName["key and hub scope"]!.detail).toMatch(/^the key is scoped to another hub than beta/);
    expect(byName.secret!.status).toBe("not checked");
  });

  it("a wrong path prefix (/api/v2: no such route) is told apart from a missing hub", async () => {
    const wrongPrefix = await checksOf({ HUB_BASE_URL: `${mock.origin}/api/v2` });
    expect(wrongPrefix.code).toBe(1);
    expect(wrongPrefix.byName.discovery!.detail).toMatch(/^nothing at http:\/\/127\.0\.0\.1:\d+\/api\/v2\/? \(404 no such route\): the path prefix looks wrong/);
    expect(wrongPrefix.byName["key and hub scope"]!.detail).toMatch(/^no such route either: the base URL's path prefix is wrong, so whether the hub exists is unknown/);
    const missingHub = await checksOf({ HUB_SLUG: "nosuch" });
    expect(missingHub.byName.discovery!.status).toBe("ok");
    expect(missingHub.byName["key and hub scope"]!.detail).toMatch(/^the API answers, but there is no hub nosuch/);
  });

  it("a server that does not answer is told apart from one that answers without a Date header", async () => {
    const { server, baseUrl } = await listen(() => undefined);
    server.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.once("close", resolve));
    const silent = await checksOf({ HUB_BASE_URL: baseUrl });
    expect(silent.code).toBe(1);
    expect(silent.byName.discovery!.detail).toMatch(/^the server did not answer \(HubConnectionError/);
    expect(silent.byName["clock skew"]).toMatchObject({ status: "not checked", detail: "the server did not answer" });

    const noDate = await listen((req, res) => {
      res.sendDate = false;
      const body = req.url === "/api/v1" || req.url === "/api/v1/" ? { name: "Plain", version: "v1" } : { slug: "alpha" };
      res.writeHead(req.method === "POST" ? 401 : 200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    try {
      const dateless = await checksOf({ HUB_BASE_URL: noDate.baseUrl });
      expect(dateless.byName.discovery!.status).toBe("ok");
      expect(dateless.byName["clock skew"]).toMatchObject({ status: "not checked" });
      expect(dateless.byName["clock skew"]!.detail).toMatch(/^the server answered without a Date header/);
    } finally {
      noDate.server.close();
    }
  });

  it("a server refusing signatures with 400: the secret is checked by the SDK's classification of refusals, as the client reads them", async () => {
    // The spec's mock, playing a server that answers a bad signature with 400 invalid_signature.
    let hubMock: HubMock | undefined;
    const faults = { latencyMs: 0, ratePerSecond: undefined, failureRate: 0, clockOffsetMs: 0 };
    const server = mockServer(new Proxy({} as HubMock, { get: (_, name) => (hubMock as unknown as Record<string | symbol, unknown>)[name] }), faults, undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
    hubMock = createHubMock({ baseUrl, signatureFailureStatus: 400 });
    try {
      const good = await checksOf({ HUB_BASE_URL: baseUrl });
      expect(good.byName.secret).toMatchObject({ status: "ok" });
      expect(good.byName.secret!.detail).toContain("a random key got 400 invalid_signature, one signed with HUB_SECRET got 400 invalid_award");
      const wrong = await checksOf({ HUB_BASE_URL: baseUrl, HUB_SECRET: "wrong" });
      expect(wrong.byName.secret).toMatchObject({ status: "failed" });
    } finally {
      server.close();
    }
  });

  it("a server that judges the body before the signature: the secret is 'not checked', not ✓", async () => {
    const bodyFirst = await listen((req, res) => {
      const body = req.method === "POST" ? { error: { code: "invalid_award", message: "wallet is required" } } : { name: "Strict", slug: "alpha" };
      res.writeHead(req.method === "POST" ? 400 : 200, { "content-type": "application/json" }).end(JSON.stringify(body));
    });
    try {
      const { code, byName } = await checksOf({ HUB_BASE_URL: bodyFirst.baseUrl });
      expect(code).toBe(0);
      expect(byName.secret).toMatchObject({ status: "not checked" });
      expect(byName.secret!.detail).toMatch(/^the server judges the body before the signature/);
    } finally {
      bodyFirst.server.close();
    }
  });

  it("a FastAPI-style hub (401 for a bad signature, 422 for the body): the secret is ✓ (it failed on the 422)", async () => {
    const fastapi = await listen((req, res) => {
      if (req.method !== "POST") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "Fast", slug: "alpha" }));
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
        // The spec's signature, checked here with node:crypto and the demo secret.
        const key = createHash("sha256").update("demo-secret-alpha").digest("hex");
        const expected = createHmac("sha256", key).update(`${req.headers["x-api-timestamp"]}.POST.${req.url}.${Buffer.concat(chunks).toString()}`).digest("hex");
        const signed = req.headers["x-api-signature"] === expected;
        res.writeHead(signed ? 422 : 401, { "content-type": "application/json" }).end(JSON.stringify(signed ? { detail: [{ type: "missing", loc: ["body", "wallet"], msg: "Field required", input: null }] } : { detail: "Invalid signature" }));
      });
    });
    try {
      const { byName } = await checksOf({ HUB_BASE_URL: fastapi.baseUrl });
      expect(byName.secret).toMatchObject({ status: "ok" });
      expect(byName.secret!.detail).toContain("a random key got 401, one signed with HUB_SECRET got 422 missing");
    } finally {
      fastapi.server.close();
    }
  });

  it("https to a hub that speaks plain HTTP: the hint names the http:// address (issue 35)", async () => {
    const { code, byName } = await checksOf({ HUB_BASE_URL: mock.baseUrl.replace(/^http:/, "https:") });
    expect(code).toBe(1);
    expect(byName.discovery!.detail).toMatch(new RegExp(`^the server answers plain HTTP, not TLS: use ${mock.baseUrl.replace(/[.]/g, "\\.")} \\(HubConnectionError`));
  });

  it("measures the clock skew against the server's Date", async () => {
    const skewed = await startMock(["--quiet", "--clock-offset", "42"]);
    try {
      const run = await runCli(["doctor", "--json"], { env: env({ HUB_BASE_URL: skewed.baseUrl }) });
      const skew = JSON.parse(run.stdout).checks.find((check: { name: string }) => check.name === "clock skew");
      expect(skew.status).toBe("ok");
      expect(Math.abs(Number(/([+-][\d.]+) s/.exec(skew.detail)![1]) - 42)).toBeLessThanOrEqual(1.5);
    } finally {
      await skewed.stop();
    }
  });
});
