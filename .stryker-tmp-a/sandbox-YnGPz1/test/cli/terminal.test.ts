// @ts-nocheck
// The CLI in a real user's first hour (issue 23, item 7): the SDK's log goes through the CLI, a skew
// the SDK corrects is not a failure, a dead address stops a campaign early, and messages point at
// what works on a terminal.
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { envFor, file, runCli } from "./run-cli";
import { startMock } from "./run-mock";

let mock: Awaited<ReturnType<typeof startMock>>;
let skewed: Awaited<ReturnType<typeof startMock>>;
beforeAll(async () => {
  mock = await startMock(["--quiet"]);
  skewed = await startMock(["--quiet", "--clock-offset", "1000"]);
});
afterAll(async () => {
  await mock.stop();
  await skewed.stop();
});

const csv = (rows: number, prefix: string) =>
  ["wallet,amount,reason,ref", ...Array.from({ length: rows }, (_, i) => `0x${i},1,season,${prefix}-${i}`)].join("\n") + "\n";

/** A loopback port with nothing listening on it: taken from the OS, then closed. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the SDK's log during a campaign", () => {
  it("is not written over the progress: counted, and summarised once at the end", async () => {
    const run = await runCli(["award", "--file", file("csv", csv(12, "log-a")), "--concurrency", "4"], { env: envFor(skewed.baseUrl) });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/\[public-hub\]/);
    expect(run.stderr).toMatch(/^SDK log: \d+ × clock-retry \(--verbose shows each line\)$/m);
  });

  it("--verbose shows each line, through the CLI's output", async () => {
    const run = await runCli(["award", "--file", file("csv", csv(4, "log-b")), "--concurrency", "4", "--verbose"], { env: envFor(skewed.baseUrl) });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^\[public-hub\] clock offsetMs=\d+$/m);
    expect(run.stderr).toMatch(/^\[public-hub\] clock-retry offsetMs=\d+$/m);
    expect(run.stderr).not.toMatch(/SDK log:/);
  });
});

describe("doctor and a skewed server clock", () => {
  it("reports what the SDK will do about it, not ✗, and exits 0 when everything else holds", async () => {
    const run = await runCli(["doctor"], { env: envFor(skewed.baseUrl) });
    expect(run.stdout).toMatch(/^✓ clock skew: server clock \+(99\d|100\d)\.\d s from this machine \(±1 s\): beyond the ±300 s signatures allow, but the server sends Date, so the SDK signs in server time/m);
    expect(run.stdout).toMatch(/^✓ secret: /m);
    expect(run.stdout).toMatch(/doctor: 4 passed, 0 failed, 0 not checked/);
    expect(run.code).toBe(0);
  });
});

describe("a campaign against a dead port", () => {
  it("stops early, as for a wrong secret: refused connections are no one award's fault", async () => {
    const port = await deadPort();
    const run = await runCli(["award", "--file", file("csv", csv(300, "dead")), "--concurrency", "4", "--json"], {
      env: { ...envFor(`http://127.0.0.1:${port}/api/v1`) },
    });
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout);
    expect(summary.stopped.reason).toMatch(/^ECONNREFUSED: the server at http:\/\/127\.0\.0\.1:\d+ cannot be reached/);
    expect(summary.failedCount).toBeGreaterThanOrEqual(10);
    expect(summary.failedCount).toBeLessThanOrEqual(13);
  });
});

describe("messages that point at what works on a terminal", () => {
  it("a refused signature names the command that shows what was signed, not error.signing", async () => {
    const run = await runCli(["award", "--file", file("csv", csv(1, "sig")), "--max-failures", "1"], { env: { ...envFor(mock.baseUrl), HUB_SECRET: "wrong" } });
    expect(run.stdout).not.toMatch(/error\.signing/);
    expect(run.stdout).toMatch(/To see the exact string signed and its signature: public-hub sign --timestamp \d+ --body '<the award as JSON>'\./);
  });

  it("leaderboard --limit 0 points at the command's help", async () => {
    const run = await runCli(["leaderboard", "--limit", "0"], { env: envFor(mock.baseUrl) });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--limit must be a positive integer, not "0"\nRun public-hub leaderboard --help for its flags\.\n$/);
    expect(run.stderr).not.toMatch(/public-hub --help for usage/);
  });
});
