/**
 * `doctor --profile --probe-wallet` against hubs that enforce one credit per ref with a unique
 * index, answering as their framework does (Django REST framework: a 400 on `ref`, the invalid
 * award's 400 beside it; Hono: 409 text for a repeat and for a changed award alike). A signal is
 * written only when it tells the repeat from every other answer the probes provoked; a changed award
 * answered as the repeat is "indistinguishable"; the error format is the hub's own refusals'.
 */
import { createHmac } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HubProfile } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { SIGNING_KEY } from "../helpers/server-client";
import { envFor, runCli, tmpPath } from "./run-cli";

const BASE = "https://unique-hub.test/api/v1";
const WALLET = "0x7777777777777777777777777777777777777777";
type Dialect = "drf" | "hono";

/** A hub of one dialect: its own HMAC check (node:crypto, from the spec), a unique index on ref, its ledger. */
function hub(dialect: Dialect) {
  const ledger = new Map<string, { wallet?: unknown; amount?: unknown }>();
  const refuse = (status: number, message: string) => (dialect === "drf" ? HttpResponse.json({ detail: message }, { status }) : new HttpResponse(message, { status, headers: { "content-type": "text/plain; charset=UTF-8" } }));
  const fieldErrors = (fields: Record<string, string>) =>
    dialect === "drf"
      ? HttpResponse.json(Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, [message]])), { status: 400 })
      : HttpResponse.json({ success: false, error: { name: "ZodError", message: JSON.stringify(Object.entries(fields).map(([name, message]) => ({ code: "custom", path: [name], message })), null, 2) } }, { status: 400 });
  const keyed = (handler: Parameters<typeof http.get>[1]): Parameters<typeof http.get>[1] => (info) => (info.request.headers.get("x-api-key") === "pk_alpha_demo" ? handler(info) : refuse(401, "Invalid API key."));
  const handlers = [
    http.get(BASE, () => HttpResponse.json({ name: "Unique Hub", version: "v1" })),
    http.get(`${BASE}/hub/alpha`, keyed(() => HttpResponse.json({ slug: "alpha", name: "Alpha" }))),
    http.get(`${BASE}/hub/alpha/leaderboard`, keyed(() => HttpResponse.json({ count: 2, next: null, previous: null, results: [{ rank: 1, wallet: WALLET, staked: 5 }, { rank: 2, wallet: "0x1", staked: 1 }] }))),
    http.get(`${BASE}/hub/alpha/holder/:wallet`, keyed(({ params }) => HttpResponse.json({ wallet: params.wallet, bits: 0 }))),
    http.get(`${BASE}/hub/alpha/stake-status`, keyed(() => HttpResponse.json({ staked: 0 }))),
    http.post(`${BASE}/hub/alpha/bits/earn`, keyed(async ({ request }) => {
      const body = await request.text();
      const timestamp = request.headers.get("x-api-timestamp") ?? "";
      const expected = createHmac("sha256", SIGNING_KEY).update(`${timestamp}.POST.${new URL(request.url).pathname}.${body}`).digest("hex");
      if (request.headers.get("x-api-signature") !== expected) return refuse(dialect === "drf" ? 403 : 401, "The signature does not match.");
      const award = JSON.parse(body) as { wallet?: unknown; amount?: unknown; ref?: unknown };
      const problems: Record<string, string> = {};
      if (typeof award.wallet !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(award.wallet)) problems.wallet = "Enter a valid value.";
      if (!Number.isInteger(award.amount) || (award.amount as number) < 1) problems.amount = "A valid integer is required.";
      if (Object.keys(problems).length > 0) return fieldErrors(problems);
      if (ledger.has(String(award.ref))) {
        return dialect === "drf" ? HttpResponse.json({ ref: ["award with this ref already exists."] }, { status: 400 }) : new HttpResponse(`Award with ref ${String(award.ref)} already exists`, { status: 409, headers: { "content-type": "text/plain; charset=UTF-8" } });
      }
      ledger.set(String(award.ref), award);
      return HttpResponse.json({ id: ledger.size, ...award }, { status: 201 });
    })),
    http.get(`${BASE}/*`, () => (dialect === "drf" ? HttpResponse.html("\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n", { status: 404 }) : new HttpResponse("404 Not Found", { status: 404 }))),
  ];
  return { handlers, ledger };
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

async function learn(dialect: Dialect) {
  const { handlers, ledger } = hub(dialect);
  server.use(...handlers);
  const file = tmpPath(`${dialect}-profile.json`);
  const run = await runCli(["doctor", "--profile", file, "--probe-wallet", WALLET], { env: envFor(BASE) });
  const profile = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as HubProfile) : undefined;
  return { run, profile, ledger };
}

describe("doctor --profile on a unique-index hub writes only the signals it checked", () => {
  it("Django REST framework: the repeat's bare 400 is the invalid award's too, so no duplicate signal is pinned, and the file says why", async () => {
    const { run, profile, ledger } = await learn("drf");
    expect(run.code).toBe(0);
    expect(profile!.award).toEqual({ status: 201, conflict: "indistinguishable" });
    expect(profile!.notes).toContainEqual(expect.stringMatching(/^award\.duplicate: not pinned: the same award again was answered 400, and so was the invalid award; .* \(the SDK's own rule reads it as duplicate\)$/));
    // The hub's own refusals are `{ "detail": … }`: no "html" from Django's 404 page.
    expect(profile!.errors).toBe("fastapi");
    expect(profile!.hub).toEqual({ baseUrl: BASE, slug: "alpha" });
    expect([...ledger.keys()]).toHaveLength(1);
  });

  it("with that profile, invalid awards are failures and a repeat is a duplicate: nothing credited twice, nothing lost", async () => {
    const { profile, ledger } = await learn("drf");
    const client = new HubServerClient({ baseUrl: BASE, clientId: "pk_alpha_demo", hub: "alpha", signingKey: SIGNING_KEY, profile: profile!, logLevel: "off", retry: 0 });
    const summary = await client.awardMany([
      { wallet: "0xabc", amount: 1, reason: "r", ref: "bad-wallet" },
      { wallet: WALLET, amount: 7.5, reason: "r", ref: "bad-amount" },
      { wallet: WALLET, amount: 3, reason: "r", ref: "good" },
    ]);
    expect(summary).toMatchObject({ applied: 1, duplicates: 0 });
    expect(summary.failed.map((failure) => failure.award.ref).sort()).toEqual(["bad-amount", "bad-wallet"]);
    expect((await client.awardPoints({ wallet: WALLET, amount: 3, reason: "r", ref: "good" }).withResponse()).duplicate).toBe(true);
    expect(ledger.size).toBe(2); // the probe and "good"
  });

  it("Hono: the repeat's 409 is pinned (no other answer is a 409), the changed award answered alike is indistinguishable, its errors are text", async () => {
    const { run, profile } = await learn("hono");
    expect(run.code).toBe(0);
    expect(profile!.award).toEqual({ status: 201, duplicate: { status: 409 }, conflict: "indistinguishable" });
    expect(profile!.errors).toBe("text");
    const learned = (JSON.parse((await learnJson("hono")).stdout) as { learned: Array<{ name: string; detail: string }> }).learned;
    expect(learned.find((line) => line.name === "award.conflict")!.detail).toMatch(/the hub does not tell a repeat from a changed award/);
  });
});

describe("a profile names the hub it was learned from", () => {
  it("a server client given another hub's profile says so", () => {
    const lines: string[] = [];
    const logger = { error: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), info: () => {}, debug: () => {} };
    const profile: HubProfile = { version: 1, hub: { baseUrl: BASE, slug: "alpha" } };
    new HubServerClient({ baseUrl: `${BASE}/`, clientId: "pk", hub: "alpha", secret: "s", profile, logger });
    expect(lines).toEqual([]);
    new HubServerClient({ baseUrl: "https://other.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", profile, logger });
    new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "beta", secret: "s", profile, logger });
    expect(lines).toEqual([
      `[public-hub] profile-other-hub learnedFrom="${BASE} alpha" client="https://other.test/api/v1 alpha"`,
      `[public-hub] profile-other-hub learnedFrom="${BASE} alpha" client="${BASE} beta"`,
    ]);
  });
});

async function learnJson(dialect: Dialect) {
  const { handlers } = hub(dialect);
  server.use(...handlers);
  return runCli(["doctor", "--profile", tmpPath(`${dialect}.json`), "--probe-wallet", WALLET, "--json"], { env: envFor(BASE) });
}
