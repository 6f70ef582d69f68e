import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { useHubMock } from "../helpers/mock-server";
import { envFor, file, runCli, tmpPath } from "./run-cli";

const { mock } = useHubMock();
const env = (overrides: Record<string, string | undefined> = {}) => ({ ...envFor(mock.baseUrl), ...overrides });
const posted = () => mock.requests.filter((r) => r.method === "POST");
const csv = (rows: number) =>
  ["wallet,amount,reason,ref", ...Array.from({ length: rows }, (_, i) => `0x${i},1,season,stop-${i}`)].join("\n") + "\n";

describe("public-hub award stops a doomed campaign", () => {
  it("a wrong secret: 300 rows, stops after 10 refusals, names the cause once, exit 1", async () => {
    const { code, stdout, stderr } = await runCli(["award", "--file", file("csv", csv(300)), "--concurrency", "4"], { env: env({ HUB_SECRET: "wrong" }) });
    expect(code).toBe(1);
    expect(posted().length).toBeGreaterThanOrEqual(10);
    expect(posted().length).toBeLessThanOrEqual(13);
    expect(stdout).toMatch(/^Stopped early: applied 0, skipped 0, failed 10; 290 of 300 rows not applied \(a run again sends them\) in [\d.]+ s\.\n/);
    expect(stderr).toMatch(/Stopped early after 10 awards in a row were refused: 401 invalid_signature: the key is unknown, or the secret does not match it/);
    // One group for one cause, not one paragraph per row.
    expect(stdout).toMatch(/^ {2}1\d × UnauthorizedError 401 invalid_signature: /m);
    expect(stdout.match(/the signed write was refused/g)).toHaveLength(1);
    expect(stdout).toMatch(/lines \d+(, \d+){4}, and \d+ more/);
  });

  it("a hub away for longer than --outage-timeout: the campaign waits that long, then stops saying so (not as refusals), exit 1", async () => {
    mock.failNext(100_000, { status: 503, body: "<html>503 Service Unavailable</html>" });
    const started = performance.now();
    const { code, stdout, stderr } = await runCli(["award", "--file", file("csv", csv(20)), "--concurrency", "2", "--outage-timeout", "1"], { env: env() });
    expect(code).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(stderr).toMatch(/^Stopped: the hub did not answer for the whole outage wait \(--outage-timeout\): .*503.*\. Nothing more was sent; once the hub is back, then run again/m);
    expect(stderr).not.toMatch(/awards in a row were refused/);
    expect(stdout).toMatch(/^Stopped early: applied 0, skipped 0, failed 0;/);
    expect(mock.ledger).toHaveLength(0);
  });

  it("--max-failures and a key of another hub (403); --json names the stop", async () => {
    const { code, stdout } = await runCli(["award", "--file", file("csv", csv(50)), "--concurrency", "1", "--max-failures", "3", "--json"], { env: env({ HUB_SLUG: "beta" }) });
    expect(code).toBe(1);
    expect(posted()).toHaveLength(3);
    const summary = JSON.parse(stdout);
    expect(summary.stopped).toMatchObject({ failures: 3, resumable: false });
    expect(summary.stopped.reason).toMatch(/^403 forbidden: the key is scoped to another hub/);
    expect(summary.causes).toEqual([expect.objectContaining({ cause: "ForbiddenError 403 forbidden", count: 3, lines: [2, 3, 4] })]);
    expect((await runCli(["award", "--file", file("csv", csv(1)), "--max-failures", "0"], { env: env() })).code).toBe(2);
  });

  it("the journal stays resumable: the same command with the right secret sends only the rest, each award once", async () => {
    const journal = tmpPath("season.journal");
    const rows = file("csv", csv(40));
    expect((await runCli(["award", "--file", file("csv", csv(15)), "--journal", journal], { env: env() })).code).toBe(0);
    const stopped = await runCli(["award", "--file", rows, "--journal", journal, "--max-failures", "4"], { env: env({ HUB_SECRET: "wrong" }) });
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain("run the same command again: the journal sends only what is not applied");
    expect(readFileSync(journal, "utf8").trim().split("\n")).toHaveLength(16);
    const before = posted().length;
    const resumed = await runCli(["award", "--file", rows, "--journal", journal, "--json"], { env: env() });
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ applied: 25, skipped: 15, failedCount: 0 });
    expect(posted().length - before).toBe(25);
    expect(mock.ledger).toHaveLength(40);
    expect(new Set(mock.ledger.map((a) => a.ref)).size).toBe(40);
  });

  it("--dry-run --check runs doctor's checks first; --check alone is a usage error", async () => {
    const checked = await runCli(["award", "--file", file("csv", csv(3)), "--dry-run", "--check"], { env: env({ HUB_SECRET: "wrong" }) });
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/^✗ secret: /m);
    expect(checked.stdout).toMatch(/^Dry run, nothing sent \(credentials checked above\): 3 would be sent/);
    expect(mock.ledger).toHaveLength(0);
    const good = await runCli(["award", "--file", file("csv", csv(3)), "--dry-run", "--check", "--json"], { env: env() });
    expect(good.code).toBe(0);
    expect(JSON.parse(good.stdout)).toMatchObject({ credentialsChecked: true, wouldSend: 3, applied: 0 });
    expect((await runCli(["award", "--file", file("csv", csv(3)), "--check"], { env: env() })).code).toBe(2);
  });
});
