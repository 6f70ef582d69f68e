import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { envFor, file, runCli } from "./run-cli";

// No MSW here: the connections are real, and refused.
const csv = (rows: string[]) => ["wallet,amount,reason,ref", ...rows].join("\n") + "\n";

/** A base URL where nothing listens: every award ends ECONNREFUSED, each after its own retries. */
async function closedBaseUrl() {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/api/v1`;
}

describe("public-hub award: one cause is one group", () => {
  it("ten ECONNREFUSED failures are one group (class and code), though each message times its own retries", async () => {
    const rows = csv(Array.from({ length: 10 }, (_, i) => `0x${i},1,season,refused-${i}`));
    const env = envFor(await closedBaseUrl());
    const json = await runCli(["award", "--file", file("csv", rows), "--json"], { env });
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout);
    expect(summary.failed).toHaveLength(10);
    expect(summary.causes).toEqual([{ cause: "HubConnectionError ECONNREFUSED", count: 10, message: expect.stringContaining("ECONNREFUSED"), lines: [2, 3, 4, 5, 6] }]);
    const text = await runCli(["award", "--file", file("csv", rows)], { env });
    expect(text.stdout.match(/^ {2}\d+ × /gm)).toEqual(["  10 × "]);
    expect(text.stdout).toMatch(/^ {2}10 × HubConnectionError ECONNREFUSED: Connection to http:\/\/127\.0\.0\.1:\d+ failed: ECONNREFUSED/m);
  }, 30_000);
});
