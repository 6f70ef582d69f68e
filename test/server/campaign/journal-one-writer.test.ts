// One campaign writes a journal file at a time: a second is refused before it sends anything, so
// the journal always stays readable; a lock left by a killed run is taken over.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { dryRunAwards, type AwardInput } from "public-hub-sdk/server";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock } = useHubMock();
const dir = mkdtempSync(join(tmpdir(), "hub-one-writer-"));
let n = 0;
const freshPath = () => join(dir, `season-${n++}.journal`);
const awards = (count: number, prefix: string): AwardInput[] => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, ref: `${prefix}-${i}` }));
const posted = () => mock.requests.filter((r) => r.method === "POST").map((r) => JSON.parse(r.body).ref as string);
/** The id of a process that has ended. */
const deadPid = () => spawnSync(process.execPath, ["-e", ""]).pid!;

describe("two campaigns on one journal file", () => {
  it("the second is refused before it sends anything; the first's journal stays readable and complete", async () => {
    const path = freshPath();
    // Both start together; which one takes the lock first is the scheduler's choice (under Stryker's
    // instrumentation the second has won), so the test names them by outcome, not by order.
    const results = await Promise.allSettled([
      serverClient(mock.baseUrl).awardMany(awards(20, "first"), { journal: path, concurrency: 2 }),
      serverClient(mock.baseUrl).awardMany(awards(20, "second"), { journal: path, concurrency: 2 }),
    ]);
    const winner = results.findIndex((r) => r.status === "fulfilled");
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const [won, lost] = winner === 0 ? ["first", "second"] : ["second", "first"];
    expect(results[winner]).toMatchObject({ status: "fulfilled", value: { applied: 20 } });
    const error = (results[1 - winner] as PromiseRejectedResult).reason as HubValidationError;
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.message).toBe(
      `Invalid campaign journal: ${path} is in use by another campaign (process ${process.pid}, lock file ${path}.lock): wait for it to end, or delete the lock file if no campaign runs`,
    );
    expect(posted().filter((ref) => ref.startsWith(lost))).toEqual([]);
    // One header, then the winner's 20 entries; a run again reads it and sends nothing.
    expect(readFileSync(path, "utf8").split("\n").filter((line) => line.includes('"journal"'))).toHaveLength(1);
    expect(existsSync(`${path}.lock`)).toBe(false);
    const again = await serverClient(mock.baseUrl).awardMany(awards(20, won), { journal: path });
    expect(again).toMatchObject({ skipped: 20, applied: 0 });
  });

  it("a lock held by a live process refuses the campaign; the lock and the journal are left as they were", async () => {
    const path = freshPath();
    writeFileSync(`${path}.lock`, `${process.ppid}\n`);
    const error = await serverClient(mock.baseUrl)
      .awardMany(awards(3, "held"), { journal: path })
      .then(() => expect.unreachable("resolved"), (e: unknown) => e as Error);
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.message).toContain(`is in use by another campaign (process ${process.ppid}, lock file ${path}.lock)`);
    expect(posted()).toEqual([]);
    expect(readFileSync(`${path}.lock`, "utf8")).toBe(`${process.ppid}\n`);
    expect(existsSync(path)).toBe(false);
  });

  it("a lock left by a killed run (its process gone) is taken over, and removed at the end", async () => {
    const path = freshPath();
    writeFileSync(`${path}.lock`, `${deadPid()}\n`);
    const summary = await serverClient(mock.baseUrl).awardMany(awards(3, "stale"), { journal: path });
    expect(summary).toMatchObject({ applied: 3 });
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it("a dry run reads a journal a live campaign holds: it never takes the lock", async () => {
    const path = freshPath();
    await serverClient(mock.baseUrl).awardMany(awards(2, "dry"), { journal: path });
    writeFileSync(`${path}.lock`, `${process.pid}\n`);
    expect(await dryRunAwards(awards(3, "dry"), { journal: path, hub: "alpha" })).toMatchObject({ skipped: 2, wouldSend: 1 });
    expect(readFileSync(`${path}.lock`, "utf8")).toBe(`${process.pid}\n`);
  });
});
