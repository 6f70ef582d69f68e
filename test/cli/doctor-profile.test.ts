import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { HubProfile } from "public-hub-sdk";
import { parseHubProfile } from "public-hub-sdk/server";
import { createHubMock, type HubMock, type HubMockOptions } from "public-hub-sdk/mock";
import { mockServer } from "../../cli/src/commands/mock";
import { envFor, runCli, tmpPath } from "./run-cli";

const WALLET = "0x7777777777777777777777777777777777777777";
const stops: Array<() => void> = [];
afterEach(() => stops.splice(0).forEach((stop) => stop()));

/** `createHubMock(options)` served over loopback HTTP, as `public-hub mock` serves it. */
async function serve(options: HubMockOptions): Promise<{ mock: HubMock; baseUrl: string }> {
  let mock: HubMock | undefined;
  const faults = { latencyMs: 0, ratePerSecond: undefined, failureRate: 0, clockOffsetMs: 0 };
  const server = mockServer(new Proxy({} as HubMock, { get: (_, name) => (mock as unknown as Record<string | symbol, unknown>)[name] }), faults, undefined);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stops.push(() => server.close());
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  mock = createHubMock({ ...options, baseUrl });
  return { mock, baseUrl };
}

type Learned = { name: string; status: string; detail: string };
/** `doctor --profile FILE --json` against a mock of these options: the file as written, and the output. */
async function learn(options: HubMockOptions, extra: string[] = [], env: Record<string, string | undefined> = {}) {
  const { mock, baseUrl } = await serve(options);
  const file = tmpPath("hub-profile.json");
  const run = await runCli(["doctor", "--profile", file, "--json", ...extra], { env: { ...envFor(baseUrl), ...env } });
  const written = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as HubProfile) : undefined;
  const output = JSON.parse(run.stdout) as { ok: boolean; profile?: HubProfile; learned?: Learned[] };
  const line = (name: string) => output.learned?.find((entry) => entry.name === name);
  return { ...run, mock, baseUrl, file, written, output, line };
}
const probe = ["--probe-wallet", WALLET];

describe("doctor --profile FILE: how a live hub speaks, written as a hub profile", () => {
  it("the mock's defaults: the fields the reads and the unappliable probes show, nothing credited, the rest in notes", async () => {
    const { code, written, output, mock, line } = await learn({});
    expect(code).toBe(0);
    expect(written).toEqual(output.profile);
    expect(parseHubProfile(written)).toEqual(written);
    const { notes, hub, ...fields } = written!;
    // The hub it was learned from, so that a client given it for another hub says so.
    expect(hub).toEqual({ baseUrl: mock.baseUrl, slug: "alpha" });
    expect(fields).toEqual({ version: 1, requestIdHeader: "x-request-id", errors: "nested", rateLimit: { headers: "none" }, leaderboard: { rows: "entries", pages: "none" } });
    expect(notes).toContain("award: needs --probe-wallet WALLET (it credits that wallet 1 point): how an award, a duplicate and a conflict are answered");
    expect(notes).toContain("a write signed with a wrong key was refused with 401 invalid_signature for its signature");
    expect(line("envelope")).toMatchObject({ status: "ok", detail: expect.stringMatching(/^none: the 5 success bodies/) });
    expect(line("wrong signature")).toMatchObject({ status: "info" });
    expect(line("award")).toMatchObject({ status: "not checked" });
    expect(mock.ledger).toEqual([]);
  });

  it("prints ✓ for what an answer showed and – with the reason for what it could not learn", async () => {
    const { baseUrl } = await serve({});
    const file = tmpPath("human.json");
    const run = await runCli(["doctor", "--profile", file], { env: envFor(baseUrl) });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("doctor: 4 passed, 0 failed, 0 not checked");
    expect(run.stdout).toContain(`profile of hub alpha, written to ${file}`);
    expect(run.stdout).toMatch(/^✓ errors: nested, from the 401 invalid_signature of the wrong signature, the 400 invalid_award of the invalid award, the 404 not_found of the unknown route$/m);
    expect(run.stdout).toMatch(/^✓ leaderboard\.rows: under "entries"/m);
    expect(run.stdout).toMatch(/^– award: needs --probe-wallet WALLET/m);
    expect(run.stdout).not.toMatch(/^✓ award/m);
  });

  it("envelope, request id and problem+json errors; --probe-wallet credits that wallet exactly 1 point and learns the 409 signals", async () => {
    const { code, written, mock, baseUrl } = await learn({ envelope: "data", requestIdHeader: "x-correlation-id", errorFormat: "problem+json", duplicateStyle: "409" }, probe);
    expect(code).toBe(0);
    expect(written).toMatchObject({ envelope: "data", requestIdHeader: "x-correlation-id", errors: "problem+json", leaderboard: { rows: "entries", pages: "none" } });
    // A problem's code, as errorFields reads it, is its type.
    const type = (name: string) => `${new URL(baseUrl).origin}/problems/${name}`;
    expect(written!.award).toEqual({ status: 200, duplicate: { status: 409, code: type("duplicate-ref") }, conflict: { status: 409, code: type("ref-conflict") } });
    expect(mock.balanceOf("alpha", WALLET)).toBe(1);
    expect(mock.ledger.map(({ wallet, amount }) => ({ wallet, amount }))).toEqual([{ wallet: WALLET, amount: 1 }]);
  });

  it.each([
    ["flag", { status: 200, field: { name: "duplicate", value: true } }, undefined],
    ["replay-header", { status: 200, header: { name: "Idempotent-Replayed", value: "true" } }, { status: 409, code: "ref_conflict" }],
    ["208", { status: 208 }, { status: 409, code: "ref_conflict" }],
    ["409", { status: 409, code: "duplicate_ref" }, { status: 409, code: "ref_conflict" }],
  ] as const)("duplicateStyle %s: the duplicate and conflict signals as the hub declares them", async (duplicateStyle, duplicate, conflict) => {
    const { written, mock, line } = await learn({ duplicateStyle }, probe);
    expect(written!.award).toEqual({ status: 200, duplicate, ...(conflict && { conflict }) });
    expect(mock.balanceOf("alpha", WALLET)).toBe(1);
    expect(mock.ledger).toHaveLength(1);
    expect(line("probe")!.detail).toMatch(new RegExp(`^credited 1 point to ${WALLET} \\(ref public-hub-doctor-[0-9a-f]+\\)`));
    // The flag style answers a ref with other parameters as a duplicate: no conflict to learn, and a note says why.
    if (!conflict) expect(written!.notes).toContain("award.conflict: the same ref with amount 2 was answered 200: the hub does not refuse a ref sent again with other parameters");
  });

  it.each([
    ["ietf", "seconds"],
    ["ietf-legacy", "seconds"],
    ["x-ratelimit", "epoch-seconds"],
  ] as const)("rateLimitHeaders %s: the headers and the reset's form; the reset's lag is a note", async (rateLimitHeaders, reset) => {
    const { written } = await learn({ rateLimit: 100, rateLimitHeaders });
    expect(written!.rateLimit).toEqual({ headers: rateLimitHeaders, reset });
    expect(written!.notes!.some((note) => note.startsWith("rateLimit.resetLagSeconds: "))).toBe(true);
  });

  it("a bare-array leaderboard and flat errors", async () => {
    const { written } = await learn({ leaderboardFormat: "array", errorFormat: "flat" });
    expect(written).toMatchObject({ leaderboard: { rows: "", pages: "none" }, errors: "flat" });
  });

  it("without a key the signed probes are skipped and said so; errors come from the unknown route", async () => {
    const { code, written, mock } = await learn({ errorFormat: "problem" }, [], { HUB_SECRET: undefined });
    expect(code).toBe(0);
    expect(written!.errors).toBe("problem");
    expect(written!.award).toBeUndefined();
    expect(written!.notes).toContain("award: no key (HUB_SECRET, HUB_SIGNING_KEY or --secret-file): the signed probes were skipped");
    expect(mock.requests.some((request) => request.method === "POST")).toBe(false);
  });

  it("--profile is written, never read (nor PUBLIC_HUB_PROFILE): a file that is no profile is replaced", async () => {
    const file = tmpPath("old.json");
    writeFileSync(file, "not a profile");
    const { baseUrl } = await serve({ envelope: "data" });
    const run = await runCli(["doctor", "--profile", file], { env: { ...envFor(baseUrl), PUBLIC_HUB_PROFILE: file } });
    expect(run.code).toBe(0);
    expect(parseHubProfile(JSON.parse(readFileSync(file, "utf8")))).toMatchObject({ version: 1, envelope: "data" });
  });

  it("a failed check writes no profile and exits 1; --probe-wallet without --profile or a key is a usage error", async () => {
    const wrong = await learn({}, probe, { HUB_SECRET: "wrong" });
    expect(wrong.code).toBe(1);
    expect(wrong.written).toBeUndefined();
    expect(wrong.mock.ledger).toEqual([]);
    const { baseUrl } = await serve({});
    expect((await runCli(["doctor", ...probe], { env: envFor(baseUrl) })).code).toBe(2);
    const keyless = await runCli(["doctor", "--profile", tmpPath("p.json"), ...probe], { env: { ...envFor(baseUrl), HUB_SECRET: undefined } });
    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain("HUB_SECRET or HUB_SIGNING_KEY");
  });
});

describe("doctor --profile against createHubMock({ profile: P }) writes P back", () => {
  // Every field doctor can learn, in several dialects; resetLagSeconds it cannot (a note says so).
  const PROFILES: HubProfile[] = [
    {
      version: 1,
      envelope: "data",
      requestIdHeader: "x-correlation-id",
      errors: "graphql",
      award: { status: 202, duplicate: "indistinguishable", conflict: { status: 409, code: "ref_conflict" } },
      rateLimit: { headers: "ietf-draft7", reset: "seconds" },
      leaderboard: { rows: "edges.node", pages: "relay" },
    },
    {
      version: 1,
      requestIdHeader: "request-id",
      errors: "nestjs",
      award: { status: 200, duplicate: { status: 200, field: { name: "replayed", value: true } }, conflict: { status: 422, code: "ref_conflict" } },
      rateLimit: { headers: "x-ratelimit", reset: "epoch-ms" },
      leaderboard: { rows: "items", pages: "cursor" },
    },
    {
      version: 1,
      requestIdHeader: "x-request-id",
      errors: "fastify",
      award: { status: 201, duplicate: { status: 409, code: "duplicate_ref" }, conflict: { status: 409, code: "ref_conflict" } },
      rateLimit: { headers: "ietf-legacy", reset: "seconds" },
      leaderboard: { rows: "", pages: "link" },
    },
    {
      version: 1,
      envelope: "result",
      requestIdHeader: "x-request-id",
      errors: "fastapi",
      award: { status: 200, duplicate: { status: 200, field: { name: "status", value: "already_processed" } }, conflict: { status: 409, code: "ref_conflict" } },
      rateLimit: { headers: "ietf", reset: "seconds" },
      leaderboard: { rows: "entries", pages: "page" },
    },
    {
      version: 1,
      requestIdHeader: null,
      errors: "problem",
      award: { status: 200, duplicate: { status: 200, header: { name: "Idempotent-Replayed", value: "true" } }, conflict: { status: 409, code: "ref_conflict" } },
      rateLimit: { headers: "x-ratelimit", reset: "epoch-seconds" },
      leaderboard: { rows: "rows", pages: "none" },
    },
  ];

  it.each(PROFILES.map((profile) => [`${profile.errors}, ${profile.leaderboard!.pages} pages`, profile] as const))("%s", async (_, profile) => {
    const { code, written, mock } = await learn({ profile, rateLimit: 100 }, probe);
    expect(code).toBe(0);
    const { notes, hub: _hub, ...fields } = written!;
    expect(fields).toEqual(profile);
    expect(notes!.some((note) => note.startsWith("rateLimit.resetLagSeconds: "))).toBe(true);
    expect(mock.balanceOf("alpha", WALLET)).toBe(1);
  });
});
