// A hub's 2xx to an award means it was applied, whatever its body says: the award resolves with
// that body as its data, and a campaign counts and journals it (it was counted failed, and sent
// again by every run, for a body that was not a JSON object).
import { readFileSync } from "node:fs";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubServerClient } from "public-hub-sdk/server";

const BODIES: Array<[string, string, unknown]> = [
  ["text", "OK", "OK"],
  ["JSON true", "true", true],
  ["an empty JSON array", "[]", []],
  ["a JSON string", '"done"', "done"],
];

function hubAnswering(text: string) {
  const sent: string[] = [];
  const fetch = (async (_url: string, init?: RequestInit) => {
    sent.push(String(init?.body));
    return new Response(text, { status: 200, headers: { "content-type": text === "OK" ? "text/plain" : "application/json" } });
  }) as unknown as typeof globalThis.fetch;
  return { sent, client: new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch }) };
}

describe("any 2xx to an award is applied", () => {
  it.each(BODIES)("a body of %s: the award resolves with it as data, not a duplicate", async (_name, text, data) => {
    const { client } = hubAnswering(text);
    const result = await client.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).withResponse();
    expect(result).toMatchObject({ data, duplicate: false, attempts: 1 });
  });

  it.each(BODIES)("a body of %s: a campaign counts it applied and journals it; a run again sends nothing", async (_name, text) => {
    const journal = join(mkdtempSync(join(tmpdir(), "any-2xx-")), "run.journal");
    const awards = [1, 2, 3].map((i) => ({ wallet: `0x${i}`, amount: 1, ref: `r-${i}` }));
    const first = hubAnswering(text);
    const summary = await first.client.awardMany(awards, { journal });
    expect(summary).toMatchObject({ applied: 3, failed: [] });
    expect(readFileSync(journal, "utf8")).toMatch(/r-3/);
    const again = hubAnswering(text);
    expect(await again.client.awardMany(awards, { journal })).toMatchObject({ applied: 0, skipped: 3 });
    expect(again.sent).toEqual([]);
  });
});
