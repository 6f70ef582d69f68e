/**
 * `doctor --profile --probe-wallet` against hubs that enforce one credit per ref with a unique
 * index, answering as their framework does (Django REST framework: a 400 on `ref`, the invalid
 * award's 400 beside it; Hono: 409 text for a repeat and for a changed award alike). A signal is
 * written only when it tells the repeat from every other answer the probes provoked; a changed award
 * answered as the repeat is "indistinguishable"; the error format is the hub's own refusals'.
 */
import { existsSync, readFileSync } from "node:fs";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HubProfile } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { SIGNING_KEY } from "../helpers/server-client";
import { UNIQUE_BASE, UNIQUE_WALLET, uniqueIndexHub, type Dialect } from "../helpers/unique-index-hub";
import { envFor, runCli, tmpPath } from "./run-cli";

const BASE = UNIQUE_BASE;
const WALLET = UNIQUE_WALLET;
const hub = (dialect: Dialect) => uniqueIndexHub(dialect);

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
