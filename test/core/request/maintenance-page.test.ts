// A maintenance page's Retry-After of an hour rules no later call: the campaign waits, probes, and
// goes on when the hub is back.
import { describe, expect, it } from "vitest";
import { HubServerClient } from "public-hub-sdk/server";
import { BASE } from "../../helpers/scripted-fetch";

describe("no single answer rules every later call", () => {
  // Real time (awardMany's signer and reader take real turns), 5 s: left out of mutation runs, where
  // it would run for every mutant of the loop; the pace tests (test/core/pace.test.ts) state its rows.
  it.skipIf(process.env.HUB_MUTATION_RUN)("a maintenance page's Retry-After of an hour: a campaign waits, probes one award at a time, and goes on when the hub is back", async () => {
    // The page is up for 1.5 s from the first request.
    let start: number | undefined;
    const sent: number[] = [];
    const applied = new Set<string>();
    const fetch = async (_url: unknown, init?: RequestInit) => {
      start ??= Date.now();
      sent.push(Date.now() - start);
      if (Date.now() - start < 1_500) return new Response("<title>Down for maintenance</title>", { status: 503, headers: { "retry-after": "3600", "content-type": "text/html" } });
      const { ref } = JSON.parse(String(init?.body)) as { ref: string };
      applied.add(ref);
      return Response.json({ ref, awarded: 1, duplicate: false });
    };
    const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: fetch as typeof globalThis.fetch });
    const awards = Array.from({ length: 20 }, (_, i) => ({ wallet: "0xabc", amount: 1, ref: `m-${i}` }));
    await expect(server.awardMany(awards, { concurrency: 4 })).resolves.toMatchObject({ applied: 20, failed: [] });
    expect(applied.size).toBe(20);
    // While the page was up: the four first awards, then one probe every 2 s at most (the rate's floor).
    expect(sent.filter((at) => at < 1_500).length).toBeLessThanOrEqual(5);
  }, 15_000);
});
