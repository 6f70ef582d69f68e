/**
 * `public-hub award` on a hub that enforces one credit per ref with a unique index (Django REST
 * framework's answers): a run again is duplicates and exit 0, never failures; the refusals of a
 * batch are grouped by their cause (the field each names), not under the first row's message.
 */
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { UNIQUE_BASE, uniqueIndexHub } from "../helpers/unique-index-hub";
import { envFor, file, runCli } from "./run-cli";

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const csv = (rows: string[]) => ["wallet,amount,reason,ref", ...rows].join("\n") + "\n";
const wallet = (n: number) => `0x${String(n).padStart(40, "0")}`;

describe("public-hub award on a unique-index hub", () => {
  it("a run again over credited awards: every one a duplicate, none failed, exit 0", async () => {
    const { handlers, ledger } = uniqueIndexHub("drf");
    server.use(...handlers);
    const rows = csv(Array.from({ length: 6 }, (_, n) => `${wallet(n)},5,season,season-${n}`));
    const env = envFor(UNIQUE_BASE);
    expect((await runCli(["award", "--file", file("csv", rows)], { env })).code).toBe(0);
    const again = await runCli(["award", "--file", file("csv", rows), "--json"], { env });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, duplicates: 6, failedCount: 0 });
    expect(ledger.size).toBe(6);
  });

  it("refusals grouped by cause: the bad wallets under wallet, the fractional amounts under amount", async () => {
    const { handlers, ledger } = uniqueIndexHub("drf");
    server.use(...handlers);
    const rows = csv([`0xabc,5,season,w-1`, `${wallet(1)},7.5,season,a-1`, `0xdef,5,season,w-2`, `${wallet(2)},2.5,season,a-2`, `0x12,5,season,w-3`, `${wallet(3)},5,season,ok-1`]);
    const run = await runCli(["award", "--file", file("csv", rows), "--json"], { env: envFor(UNIQUE_BASE) });
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as { applied: number; causes: Array<{ cause: string; count: number; lines: number[] }> };
    expect(summary.applied).toBe(1);
    expect(summary.causes.map(({ cause, count, lines }) => ({ cause, count, lines: [...lines].sort() }))).toEqual([
      { cause: "BadRequestError 400 wallet:invalid", count: 3, lines: [2, 4, 6] },
      { cause: "BadRequestError 400 amount:invalid", count: 2, lines: [3, 5] },
    ]);
    expect([...ledger.keys()]).toEqual(["ok-1"]);
  });
});
