import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useHubMock } from "../helpers/mock-server";
import { envFor, file, runCli, tmpPath } from "./run-cli";

const { mock } = useHubMock();
const env = () => envFor(mock.baseUrl);
const posted = () => mock.requests.filter((r) => r.method === "POST");
const rowsOf = (rows: string[]) => ["wallet,amount,reason,ref", ...rows].join("\n") + "\n";
const csv = (rows: number, start = 0) =>
  ["wallet,amount,reason,ref", ...Array.from({ length: rows }, (_, i) => `0x${i + start},${i + 1},quest,cli-${i + start}`)].join("\n") + "\n";

describe("public-hub award", () => {
  it("applies a CSV file, prints a summary, exit 0", async () => {
    const { code, stdout } = await runCli(["award", "--file", file("csv", csv(25)), "--concurrency", "4"], { env: env() });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Applied 25, skipped 0, failed 0, of 25 awards in [\d.]+ s\.\n$/);
    expect(mock.ledger).toHaveLength(25);
    expect(mock.balanceOf("alpha", "0x24")).toBe(25);
  });

  it("reads the kind shape and JSON Lines", async () => {
    const kinds = file("csv", "wallet,kind,ref\n0xa,daily-login,k-1\n0xb,daily-login,k-2\n");
    expect((await runCli(["award", "-f", kinds], { env: env() })).code).toBe(0);
    const lines = file("jsonl", '{"wallet":"0xc","amount":3,"ref":"j-1"}\n\n{"wallet":"0xd","kind":"daily-login","ref":"j-2"}\n');
    expect((await runCli(["award", "--file", lines], { env: env() })).code).toBe(0);
    expect(mock.ledger.map((a) => [a.ref, a.amount]).sort()).toEqual([["j-1", 3], ["j-2", 5], ["k-1", 5], ["k-2", 5]]);
  });

  it("--json: a machine summary on stdout, failures with their line numbers and typed errors; exit 1", async () => {
    mock.failNext(1, { status: 400, contentType: "application/json", body: '{"error":{"code":"invalid_award","message":"no"}}' });
    const text = "wallet,amount,reason,ref\n0x1,5,,a-1\n0x2,-4,,a-2\n0x3,many,,a-3\n0x4,6,,a-4\n";
    const { code, stdout } = await runCli(["award", "--file", file("csv", text), "--concurrency", "1", "--json"], { env: env() });
    expect(code).toBe(1);
    const summary = JSON.parse(stdout);
    expect(summary).toMatchObject({ dryRun: false, total: 4, applied: 1, skipped: 0 });
    expect(summary.failed).toEqual([
      { line: 2, index: 0, ref: "a-1", error: expect.objectContaining({ name: "BadRequestError", status: 400, code: "invalid_award" }) },
      { line: 3, index: 1, ref: "a-2", error: expect.objectContaining({ name: "HubValidationError", message: expect.stringContaining("greater than 0") }) },
      { line: 4, index: 2, ref: "a-3", error: expect.objectContaining({ name: "HubValidationError", message: expect.stringContaining("finite number") }) },
    ]);
    expect(mock.ledger.map((a) => a.ref)).toEqual(["a-4"]);
  });

  it("rows refused for different fields stay different causes; --json keeps each failure's issues", async () => {
    mock.failNext(1, { status: 400, contentType: "application/json", body: '{"code":"invalid_award","message":"no","errors":[{"pointer":"/reason","detail":"too long","code":"too_long"}]}' });
    const rows = rowsOf(["0x1,5,,c-1", "0x2,-4,,c-2", "0x3,-5,,c-3", ",5,,c-4"]);
    const { code, stdout } = await runCli(["award", "--file", file("csv", rows), "--concurrency", "1", "--json"], { env: env() });
    expect(code).toBe(1);
    const summary = JSON.parse(stdout);
    expect(summary.failed.map((failure: { error: { issues: unknown } }) => failure.error.issues)).toEqual([
      [{ path: ["reason"], message: "too long", code: "too_long" }],
      [expect.objectContaining({ path: ["amount"] })],
      [expect.objectContaining({ path: ["amount"] })],
      [expect.objectContaining({ path: ["wallet"] })],
    ]);
    expect(summary.causes.map((group: { count: number; lines: number[] }) => [group.count, group.lines])).toEqual([[2, [3, 4]], [1, [2]], [1, [5]]]);
  });

  it("--dry-run: reports every bad row by cause with its line number, sends nothing, says credentials were not checked, exit 2", async () => {
    const text = 'wallet,amount,reason,ref\n0x1,5,,d-1\n,5,,d-2\n0x3,5,"quoted, reason",d-3\n0x4,5\n0x5,7,,d-1\n0x6,1,,d-6\n';
    const { code, stdout } = await runCli(["award", "--file", file("csv", text), "--dry-run"], { env: {} });
    expect(code).toBe(2);
    expect(mock.requests).toHaveLength(0);
    expect(stdout).toMatch(/^Dry run, nothing sent \(credentials not checked: add --check\): 3 would be sent, 0 skipped \(already applied or repeated\), 3 invalid, of 6 rows\./);
    expect(stdout).toContain("1 × HubValidationError wallet:too_small: Invalid award: wallet");
    expect(stdout).toMatch(/1 × UnreadableRow: .*\n {4}line 5\n/);
    expect(stdout).toMatch(/1 × RefConflictError: ref "d-1" .*\n {4}line 6\n/);
    expect(stdout).not.toMatch(/\d+ applied|applied \d+|settled/i);
    const clean = await runCli(["award", "--file", file("csv", csv(10)), "--dry-run", "--json"], { env: {} });
    expect(clean.code).toBe(0);
    const summary = JSON.parse(clean.stdout);
    expect(summary).toMatchObject({ dryRun: true, credentialsChecked: false, total: 10, wouldSend: 10, applied: 0, failed: [] });
  });

  it("a journal makes a second run skip what was applied", async () => {
    const journal = tmpPath("awards.journal");
    const awards = file("csv", csv(6));
    expect((await runCli(["award", "--file", awards, "--journal", journal], { env: env() })).code).toBe(0);
    expect(readFileSync(journal, "utf8").trim().split("\n")).toHaveLength(7);
    const again = await runCli(["award", "--file", awards, "--journal", journal, "--json"], { env: env() });
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, skipped: 6 });
    expect(posted()).toHaveLength(6);
  });

  it("not a terminal: plain periodic progress lines on stderr", async () => {
    mock.rateLimitNext(1, 0);
    const { code, stderr, stdout } = await runCli(["award", "--file", file("csv", csv(60)), "--concurrency", "2"], { env: env(), progressIntervalMs: 5 });
    expect(code).toBe(0);
    const lines = stderr.trim().split("\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^progress \d+\/60 \(\d+%\): applied \d+, skipped 0, failed 0, \d+\/s, ETA (\d+(s|m\d+s)|\?)$/);
    const dry = await runCli(["award", "--file", file("csv", csv(60)), "--dry-run"], { env: {}, progressIntervalMs: 1 });
    for (const line of dry.stderr.trim().split("\n")) expect(line).toMatch(/^progress \d+\/60 \(\d+%\): would send \d+, skipped 0/);
    expect(stdout).toContain("Applied 60");
    expect(stderr).not.toContain("\u001b["); // no terminal escapes
  });

  it("a terminal: a progress bar with done/total, rate, ETA and failures", async () => {
    let stderr = "";
    const terminal = { isTTY: true, columns: 120, write: (text: string) => (stderr += text) };
    const { code } = await runCli(["award", "--file", file("csv", csv(30))], { env: env(), isTTY: true, stderr: terminal });
    expect(code).toBe(0);
    expect(stderr).toMatch(/100% \| 30\/30 \| \d+\/s \| ETA \S+ \| failed 0/);
  });

  it("usage and input errors exit 2 and send nothing", async () => {
    const cases = [
      ["award"],
      ["award", "--file", "/nonexistent.csv"],
      ["award", "--file", file("txt", "x")],
      ["award", "--file", file("csv", "wallet,points,ref\n0x1,3,r\n")],
      ["award", "--file", file("csv", csv(1)), "--concurrency", "0"],
      ["award", "--file", file("csv", csv(1)), "--bogus"],
      ["nope"],
      [],
    ];
    for (const argv of cases) {
      const { code, stderr } = await runCli(argv, { env: env() });
      expect([argv.join(" "), code]).toEqual([argv.join(" "), 2]);
      expect(stderr.length).toBeGreaterThan(0);
    }
    const noKey = await runCli(["award", "--file", file("csv", csv(1))], { env: { ...env(), HUB_SECRET: undefined } });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("HUB_SECRET or HUB_SIGNING_KEY");
    expect(mock.requests).toHaveLength(0);
  });

  it("Ctrl-C: stops, says how to resume, exit 130; the run again completes each award once", async () => {
    const journal = tmpPath("interrupted.journal");
    const awards = file("csv", csv(100));
    const controller = new AbortController();
    let seen = 0;
    const interrupted = await runCli(["award", "--file", awards, "--journal", journal], {
      env: env(),
      signal: controller.signal,
      stderr: { write: () => ++seen === 2 && controller.abort() },
      progressIntervalMs: 1,
    });
    expect(interrupted.code).toBe(130);
    expect(mock.ledger.length).toBeLessThan(100);
    const resumed = await runCli(["award", "--file", awards, "--journal", journal, "--json"], { env: env() });
    expect(resumed.code).toBe(0);
    expect(mock.ledger.map((a) => a.ref).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `cli-${i}`).sort());
  }, 20_000);

  it("never prints the secret", async () => {
    const runs = [
      await runCli(["award", "--file", file("csv", csv(2)), "--json"], { env: env() }),
      await runCli(["doctor"], { env: env() }),
      await runCli(["sign", "--body", "{}"], { env: env() }),
    ];
    for (const run of runs) expect(run.stdout + run.stderr).not.toContain(env().HUB_SECRET);
  });
});
