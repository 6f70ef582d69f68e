// `public-hub leaderboard --all`: every row across a paging hub's pages, printed once all are read.
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { file, runCli } from "./run-cli";

const BASE = "https://paging-hub.test/api/v1";
const BOARD = `${BASE}/hub/alpha/leaderboard`;
const ROWS = Array.from({ length: 5 }, (_, i) => ({ rank: i + 1, wallet: `0x${i + 1}`, staked: 50 - i }));
const env = { HUB_BASE_URL: BASE, HUB_CLIENT_ID: "pk_test", HUB_SLUG: "alpha" };

/** Every leaderboard request's query, in order. */
const sent: string[] = [];
const server = setupServer(
  // A cursor hub: `limit` rows a page (2 by default), `next_cursor` until the last; `page` numbers and `scores` too, for a profile to pin.
  http.get(BOARD, ({ request }) => {
    const url = new URL(request.url);
    sent.push(url.search);
    const size = Number(url.searchParams.get("limit") ?? 2);
    const from = url.searchParams.has("page") ? (Number(url.searchParams.get("page")) - 1) * size : Number(url.searchParams.get("cursor")?.slice(1) ?? 0);
    const rows = ROWS.slice(from, from + size);
    const more = from + rows.length < ROWS.length;
    return HttpResponse.json({ entries: rows, scores: rows.map((row) => ({ ...row, wallet: `scored-${row.wallet}` })), next_cursor: more ? `k${from + rows.length}` : null, page: Math.floor(from / size) + 1, pages: Math.ceil(ROWS.length / size) });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  sent.length = 0;
});
afterAll(() => server.close());

describe("public-hub leaderboard --all", () => {
  it("prints every row across the pages as one table, --limit the page size", async () => {
    const { code, stdout, stderr } = await runCli(["leaderboard", "--all", "--limit", "2"], { env });
    expect([code, stderr]).toEqual([0, ""]);
    expect(stdout).toBe(["rank  wallet  staked", "   1  0x1         50", "   2  0x2         49", "   3  0x3         48", "   4  0x4         47", "   5  0x5         46", ""].join("\n"));
    expect(sent).toEqual(["?limit=2", "?limit=2&cursor=k2", "?limit=2&cursor=k4"]);
  });

  it("without --all, one page as before", async () => {
    const { code, stdout } = await runCli(["leaderboard", "--limit", "2"], { env });
    expect(code).toBe(0);
    expect(stdout.trim().split("\n")).toHaveLength(3);
    expect(sent).toEqual(["?limit=2"]);
  });

  it("--json prints the rows of every page as one array", async () => {
    const { code, stdout } = await runCli(["leaderboard", "--all", "--json", "--limit", "3"], { env });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(ROWS);
    expect(sent).toEqual(["?limit=3", "?limit=3&cursor=k3"]);
  });

  it("--max-pages reached: exit 1, no row printed (a cut list is never shown as the whole), the error naming the flag", async () => {
    const { code, stdout, stderr } = await runCli(["leaderboard", "--all", "--limit", "2", "--max-pages", "2"], { env });
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toBe(
      'public-hub: Leaderboard pages stopped (max-pages) after 2 pages, their rows given: maxPages (2) reached and the hub announces another page (cursor="k4"): raise maxPages, or resume with { page: error.next } (public-hub: --max-pages <n>)\n',
    );
    expect(sent).toHaveLength(2);
    const json = await runCli(["leaderboard", "--all", "--json", "--max-pages", "1"], { env });
    expect(JSON.parse(json.stdout).error).toMatchObject({ name: "HubPagingError" });
  });

  it("a hub profile pins the paging style and the rows' place", async () => {
    const profile = file("json", JSON.stringify({ version: 1, leaderboard: { rows: "scores", pages: "page" } }));
    const { code, stdout } = await runCli(["leaderboard", "--all", "--json", "--limit", "2", "--profile", profile], { env });
    expect(code).toBe(0);
    expect(JSON.parse(stdout).map((row: { wallet: string }) => row.wallet)).toEqual(ROWS.map((row) => `scored-${row.wallet}`));
    expect(sent).toEqual(["?limit=2", "?limit=2&page=2", "?limit=2&page=3"]);
  });

  it("usage errors exit 2, nothing sent: --all or --max-pages outside their place, a bad --max-pages", async () => {
    for (const argv of [["hub", "--all"], ["leaderboard", "--max-pages", "3"], ["leaderboard", "--all", "--max-pages", "0"], ["leaderboard", "--all", "--max-pages", "x"], ["leaderboard", "--all=yes"]]) {
      const { code, stderr } = await runCli(argv, { env });
      expect([argv, code]).toEqual([argv, 2]);
      expect(stderr).toMatch(/^public-hub: /);
    }
    expect(sent).toHaveLength(0);
  });

  it("leaderboard --help names --all and --max-pages", async () => {
    const { code, stdout } = await runCli(["leaderboard", "--help"], { env: {} });
    expect(code).toBe(0);
    expect(stdout).toContain("public-hub leaderboard [--limit <n>] [--all [--max-pages <n>]] [flags]");
    expect(stdout).toMatch(/--all +every row across the hub's pages/);
    expect(stdout).toMatch(/--max-pages <n> +with --all: the most pages read/);
  });
});
