// @ts-nocheck
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("npm run demo", () => {
  it("prints real data from the embedded mock, and the award applied once", async () => {
    const env = { ...process.env, HUB_BASE_URL: "", HUB_CLIENT_ID: "", HUB_SLUG: "" };
    const { stdout } = await run(process.execPath, ["--import", "tsx", "examples/demo.ts"], { env, timeout: 60_000 });
    expect(stdout).toContain("the embedded mock");
    expect(stdout).toContain('"name": "Alpha Hub"');
    expect(stdout).toContain('"rank": 1');
    expect(stdout).toContain('"staked": 52000');
    expect(stdout).toMatch(/## award \(signed\)[\s\S]*"duplicate": false[\s\S]*## the same award replayed[\s\S]*"duplicate": true/);
    expect(stdout).toContain("sent twice, applied once");
  }, 60_000);
});
