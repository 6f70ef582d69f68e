import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HubProfile } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { runCli, tmpPath } from "./run-cli";
import { startMock } from "./run-mock";

// Real loopback HTTP (no MSW in this file): `public-hub mock --profile FILE` as another program sees it.
const profileFile = (profile: unknown) => {
  const path = tmpPath("hub-profile.json");
  writeFileSync(path, JSON.stringify(profile));
  return path;
};

describe("public-hub mock --profile", () => {
  it("serves the hub the profile describes, names it and what it sets in the banner; a flag given beside it wins", async () => {
    const profile: HubProfile = {
      version: 1,
      envelope: "data",
      errors: "fastapi",
      requestIdHeader: "X-Correlation-Id",
      award: { status: 201, duplicate: { status: 409, code: "ref_taken" } },
      rateLimit: { headers: "ietf-draft7" },
      leaderboard: { rows: "items", pages: "page" },
    };
    const path = profileFile(profile);
    const mock = await startMock(["--quiet", "--profile", path, "--rate-limit", "50", "--error-format", "flat"]);
    try {
      expect(mock.output()).toContain(
        `Profile: ${path} — errors fastapi (--error-format wins), envelope data, request id X-Correlation-Id, award 201, duplicate 409 ref_taken, rate limit announced by ietf-draft7, leaderboard items paged by page\n`,
      );
      const board = await fetch(`${mock.baseUrl}/hub/alpha/leaderboard?limit=2`, { headers: { "x-api-key": "pk_alpha_demo" } });
      expect([board.headers.get("x-correlation-id"), board.headers.get("ratelimit-policy")]).toEqual(["req_mock_000001", "50;w=1"]);
      expect(await board.json()).toEqual({ data: expect.objectContaining({ items: [expect.objectContaining({ rank: 1 }), expect.objectContaining({ rank: 2 })], page: 1, pages: 3, per_page: 2 }), meta: { request_id: "req_mock_000001" } });
      const refused = await fetch(`${mock.baseUrl}/hub/nowhere`, { headers: { "x-api-key": "pk_alpha_demo" } });
      expect(await refused.json()).toEqual({ code: "hub_not_found", message: 'No hub "nowhere".' }); // --error-format flat, not fastapi
      const server = new HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha", profile, retry: 0 });
      const award = { wallet: "0xabc", amount: 7, reason: "quest", ref: "p-1" };
      const fresh = await server.awardPoints(award).withResponse();
      expect([fresh.response.status, fresh.duplicate]).toEqual([201, false]);
      const again = await server.awardPoints(award).withResponse();
      expect([again.response.status, again.duplicate]).toEqual([409, true]);
    } finally {
      expect(await mock.stop()).toBe(0);
    }
    expect(mock.output()).toContain("mock stopped (1 awards were applied).");
  });

  it("a bad profile file exits 2 with a message naming the field; so does one the mock cannot speak", async () => {
    const bad = profileFile({ version: 1, award: { status: "201" } });
    const run = await runCli(["mock", "--profile", bad], { env: {} });
    expect([run.code, run.stderr]).toEqual([2, expect.stringContaining(`--profile ${bad} is not a hub profile: award.status:`)]);
    const unspeakable = await runCli(["mock", "--profile", profileFile({ version: 1, leaderboard: { rows: "", pages: "cursor" } })], { env: {} });
    expect([unspeakable.code, unspeakable.stderr]).toEqual([2, expect.stringContaining('leaderboard.pages: a bare-array leaderboard (rows "") pages only by "link" or "none", not "cursor"')]);
    expect((await runCli(["mock", "--profile", tmpPath("missing.json")], { env: {} })).code).toBe(2);
  });

  it("--help lists --profile and the new formats", async () => {
    const { stdout } = await runCli(["mock", "--help"], { env: {} });
    expect(stdout).toMatch(/--profile <file\.json>\s+speak a hub as its profile describes it/);
    expect(stdout).toContain("errors-array, graphql, nestjs, fastify, fastapi, text, html");
    expect(stdout).toContain("ietf, ietf-draft7, ietf-legacy");
  });
});
