// @ts-nocheck
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../cli/src/help";
import { useHubMock } from "../helpers/mock-server";
import { envFor, file, runCli, tmpPath } from "./run-cli";

const { mock } = useHubMock();
let captured = "";
const env = () => envFor(mock.baseUrl);
const csv = (rows: number) => ["wallet,amount,reason,ref", ...Array.from({ length: rows }, (_, i) => `0x${i},1,,o-${i}`)].join("\n") + "\n";

describe("public-hub output", () => {
  it("leaderboard --limit 3: a table with a header, nested values readable; --json unchanged", async () => {
    const { code, stdout } = await runCli(["leaderboard", "--limit", "3"], { env: env() });
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^rank\s+wallet\s+staked$/);
    expect(lines[1]).toMatch(/^\s*1\s+0x1{40}\s+52000$/);
    expect(stdout).not.toContain("[object Object]");
    const json = JSON.parse((await runCli(["leaderboard", "--limit", "3", "--json"], { env: env() })).stdout);
    expect(json).toEqual({ hub: "alpha", limit: 3, total: 5, entries: expect.any(Array) });
  });

  it("nested values in a table are key=value, never [object Object]", async () => {
    const { table } = await import("../../cli/src/format");
    expect(table([{ wallet: "0x1", meta: { tier: "gold", badges: ["a", "b"] } }])).toBe("wallet  meta\n0x1     tier=gold badges=a, b");
  });

  it("each command has its own --help with flags, defaults and an example", async () => {
    const seen = new Set<string>();
    for (const name of Object.keys(COMMANDS)) {
      const { code, stdout } = await runCli([name, "--help"], { env: {} });
      expect(code).toBe(0);
      expect(stdout).toMatch(new RegExp(`^Usage: public-hub ${name}`));
      expect(stdout).toContain("Flags:");
      expect(stdout).toContain("Example:");
      seen.add(stdout);
    }
    expect(seen.size).toBe(Object.keys(COMMANDS).length);
    const award = (await runCli(["award", "--help"], { env: {} })).stdout;
    expect(award).toContain("--max-failures <n>");
    expect(award).toContain("(default: 10)");
    expect(award).toContain("(default: 16)");
    expect((await runCli(["help", "award"], { env: {} })).stdout).toBe(award);
  });

  it("--version prints the CLI package's version", async () => {
    const { version } = JSON.parse(readFileSync(new URL("../../cli/package.json", import.meta.url), "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) expect(await runCli([flag], { env: {} })).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it("global flags before the command work", async () => {
    const { code, stdout } = await runCli(["--base-url", mock.baseUrl, "--hub", "alpha", "--json", "hub"], { env: { HUB_CLIENT_ID: "pk_alpha_demo" } });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ slug: "alpha" });
    expect((await runCli([`--base-url=${mock.baseUrl}`, "leaderboard"], { env: { HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha" } })).code).toBe(0);
  });

  it("a misspelt flag: one clean sentence with a suggestion, exit 2", async () => {
    const { code, stderr } = await runCli(["award", "--file", file("csv", csv(1)), "--dry-rn"], { env: {} });
    expect(code).toBe(2);
    expect(stderr).toBe("public-hub: unknown flag --dry-rn for award; did you mean --dry-run?\nRun public-hub award --help for its flags.\n");
    const missing = await runCli(["award", "--file"], { env: {} });
    expect(missing.stderr).toBe("public-hub: --file needs a value\nRun public-hub award --help for its flags.\n");
    expect((await runCli(["--bogus", "hub"], { env: {} })).stderr).toContain("unknown flag --bogus before the command");
  });

  it("exit 2 for invalid input, as the README says: a bad base URL, an empty wallet, a journal of another hub", async () => {
    const badUrl = await runCli(["hub", "--base-url", "not a url"], { env: env() });
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toMatch(/^public-hub: Invalid client options: baseUrl/);
    expect((await runCli(["holder", ""], { env: env() })).code).toBe(2);
    const journal = tmpPath("season.journal");
    expect((await runCli(["award", "--file", file("csv", csv(2)), "--journal", journal], { env: env() })).code).toBe(0);
    const other = await runCli(["award", "--file", file("csv", csv(2)), "--journal", journal, "--dry-run"], { env: { HUB_SLUG: "beta" } });
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(`${journal}, line 1 was written for hub "alpha", not "beta"`);
    expect(other.stderr).not.toContain(`${journal}.1`);
    expect(mock.requests.filter((r) => r.method === "POST")).toHaveLength(2);
  });

  it("--json interrupted by Ctrl-C still prints its JSON summary, marked interrupted; no 'settled'", async () => {
    const controller = new AbortController();
    let lines = 0;
    const { code, stdout, stderr } = await runCli(["award", "--file", file("csv", csv(200)), "--json", "--concurrency", "2"], {
      env: env(),
      signal: controller.signal,
      progressIntervalMs: 1,
      stderr: {
        write: (text: string) => {
          if (++lines === 2) controller.abort(new Error("SIGINT"));
          if (text.startsWith("Interrupted")) captured += text;
        },
      },
    });
    expect(code).toBe(130);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ interrupted: true, dryRun: false, skipped: 0, failedCount: 0 });
    expect(summary.applied).toBe(mock.ledger.length);
    expect(captured).toMatch(/^Interrupted: \d+ applied \(answered by the server\), 0 skipped, 0 failed so far; without --journal/);
    expect(stdout + stderr + captured).not.toMatch(/settled/);
  });
});

