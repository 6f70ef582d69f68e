// Issue 30 in the CLI: a duplicate is an outcome, Ctrl-C names the awards in flight, an empty wallet says so.
import { delay, http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";
import { envFor, file, runCli, tmpPath } from "./run-cli";

const hub = useHubMock();
const { mock } = hub;
const env = () => envFor(mock.baseUrl);
const posted = () => mock.requests.filter((r) => r.method === "POST").length;
const rows = (count: number) => Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, reason: "season", ref: `cli-dup-${i}` }));
const csv = (count: number) => ["wallet,amount,reason,ref", ...rows(count).map((r) => `${r.wallet},${r.amount},${r.reason},${r.ref}`)].join("\n") + "\n";
const award = () => `${mock.baseUrl}/hub/alpha/bits/earn`;

describe("public-hub award and duplicates", () => {
  it("a resumed campaign against a hub answering 409 for used refs: a duplicates line, exit 0; a run again sends nothing", async () => {
    const journal = tmpPath("dup.journal");
    expect((await runCli(["award", "--file", file("csv", csv(10)), "--journal", journal], { env: env() })).code).toBe(0);
    // Rows 10–13 were in flight at a Ctrl-C: the hub credited them, the journal never heard.
    for (const row of rows(14).slice(10)) await serverClient(mock.baseUrl).awardPoints(row);
    hub.server.use(
      http.post(award(), async ({ request }) => {
        const { ref } = (await request.clone().json()) as { ref: string };
        if (!mock.ledger.some((a) => a.ref === ref)) return undefined;
        return HttpResponse.json({ type: "https://hub.example/problems/duplicate-ref", title: "Duplicate ref", status: 409 }, { status: 409, headers: { "content-type": "application/problem+json" } });
      }),
    );
    const all = file("csv", csv(20));
    const resumed = await runCli(["award", "--file", all, "--journal", journal], { env: env() });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^Applied 6, skipped 10, failed 0, of 20 awards in [\d.]+ s\.\nDuplicates 4: the hub already had their ref/);
    const before = posted();
    const again = await runCli(["award", "--file", all, "--journal", journal, "--json"], { env: env() });
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, duplicates: 0, skipped: 20, failedCount: 0 });
    expect(posted()).toBe(before);
    expect(mock.ledger).toHaveLength(20);
  });

  it("without --journal, duplicates are not said to be 'not sent again': a run again does send them", async () => {
    for (const row of rows(4)) await serverClient(mock.baseUrl).awardPoints(row);
    const file6 = file("csv", csv(6));
    const first = await runCli(["award", "--file", file6], { env: env() });
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Applied 2, skipped 0, failed 0, of 6 awards in [\d.]+ s\.\nDuplicates 4: the hub already had their ref, so each is credited once \(not failures\)\.\n$/);
    const before = posted();
    const again = await runCli(["award", "--file", file6, "--json"], { env: env() });
    expect(JSON.parse(again.stdout)).toMatchObject({ applied: 0, duplicates: 6 });
    expect(posted() - before).toBe(6);
  });

  it("Ctrl-C says how many awards were in flight", async () => {
    const controller = new AbortController();
    let hanging = 0;
    hub.server.use(
      http.post(award(), async () => {
        if (++hanging === 3) setTimeout(() => controller.abort(), 0);
        await delay("infinite");
        return new Response(null);
      }),
    );
    const { code, stderr } = await runCli(["award", "--file", file("csv", csv(10)), "--concurrency", "3"], { env: env(), signal: controller.signal });
    expect(code).toBe(130);
    expect(stderr).toMatch(/^Interrupted: 0 applied \(answered by the server\), 0 skipped, 0 failed so far; without --journal, .*\. 3 awards were in flight: the hub may have applied them, and a run again credits each once\.$/m);
  });

  it("an empty wallet cell reads as empty, not as a wrong type", async () => {
    const { code, stdout } = await runCli(["award", "--file", file("csv", "wallet,amount,reason,ref\n,5,,e-1\n"), "--dry-run"], { env: {} });
    expect(code).toBe(2);
    expect(stdout).toContain("wallet must not be empty");
    expect(stdout).not.toContain("must be a string");
  });
});
