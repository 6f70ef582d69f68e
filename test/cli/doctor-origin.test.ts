/**
 * `doctor --profile` reads pages with the SDK's own iterateLeaderboard, and stays on the hub's
 * origin: a redirect or a next page elsewhere is never followed with the client id or a signature,
 * and it says where it was sent instead.
 */
import { existsSync, readFileSync } from "node:fs";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HubProfile } from "public-hub-sdk";
import { UNIQUE_BASE, uniqueIndexHub } from "../helpers/unique-index-hub";
import { envFor, runCli, tmpPath } from "./run-cli";

const BOARD = `${UNIQUE_BASE}/hub/alpha/leaderboard`;
const ROWS = Array.from({ length: 5 }, (_, i) => ({ rank: i + 1, wallet: `0x${i + 1}`, staked: 100 - i }));
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/** Every request any origin received, as METHOD URL with its x-api-key. */
const seen: Array<{ url: string; key: string | null }> = [];
server.events.on("request:start", ({ request }) => void seen.push({ url: request.url, key: request.headers.get("x-api-key") }));

async function learn(board: Parameters<typeof http.get>[1], extra: Parameters<typeof http.get>[] = []) {
  seen.length = 0;
  server.use(...uniqueIndexHub("drf").handlers);
  server.use(http.get(BOARD, board), ...extra.map((args) => http.get(...args)));
  const file = tmpPath("origin.json");
  const run = await runCli(["doctor", "--profile", file, "--json"], { env: envFor(UNIQUE_BASE) });
  const profile = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as HubProfile) : undefined;
  const learned = (JSON.parse(run.stdout) as { learned?: Array<{ name: string; status: string; detail: string }> }).learned ?? [];
  return { run, profile, learned };
}

const drfPage = (absolute: string) => ({ request }: { request: Request }) => {
  const url = new URL(request.url);
  const page = Number(url.searchParams.get("page") ?? 1);
  const from = (page - 1) * 2;
  const more = from + 2 < ROWS.length;
  return HttpResponse.json({ count: ROWS.length, next: more ? `${absolute}?limit=2&page=${page + 1}` : null, previous: null, results: ROWS.slice(from, from + 2) });
};

describe("doctor --profile: pages read by the SDK, on the hub's origin", () => {
  it("Django REST framework's absolute next URL: pinned as next, from the second page it read", async () => {
    const { profile, learned } = await learn(drfPage(BOARD));
    expect(profile!.leaderboard).toEqual({ rows: "results", pages: "next" });
    expect(learned.find((line) => line.name === "leaderboard.pages")!.detail).toBe("next: the next page, read in that form, gave 2 other rows");
  });

  it("a next URL to another origin is never requested: not pinned, and the file says where it pointed", async () => {
    const { profile, learned } = await learn(drfPage("https://elsewhere.test/api/v1/hub/alpha/leaderboard"));
    expect(profile!.leaderboard).toEqual({ rows: "results" });
    expect(learned.find((line) => line.name === "leaderboard.pages")).toMatchObject({ status: "not checked", detail: expect.stringContaining("its next points to https://elsewhere.test/api/v1/hub/alpha/leaderboard") });
    expect(seen.filter((request) => !request.url.startsWith(UNIQUE_BASE))).toEqual([]);
  });

  it("a redirect to another origin is not followed, by the reads nor the signed probes: doctor says where it was sent", async () => {
    const away = "https://elsewhere.test/api/v1/hub/alpha";
    const { learned } = await learn(drfPage(BOARD), [[`${UNIQUE_BASE}/hub/alpha/holder/:wallet`, () => new HttpResponse(null, { status: 302, headers: { location: `${away}/holder/x` } })]]);
    expect(seen.filter((request) => !request.url.startsWith(UNIQUE_BASE))).toEqual([]);
    expect(learned.find((line) => line.name === "redirect")!.detail).toMatch(/^GET \/api\/v1\/hub\/alpha\/holder\/0x[0-9a-f]{40} was answered 302 to https:\/\/elsewhere\.test\/api\/v1\/hub\/alpha\/holder\/x: not followed/);
  });
});
