// @ts-nocheck
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { HubSchemaError } from "public-hub-sdk";
import { HubServerClient, type JournalEntry } from "public-hub-sdk/server";
import { useHubMock } from "../helpers/mock-server";
import { SECRET } from "../helpers/server-client";

const { mock, server } = useHubMock();
const EARN_URL = `${mock.baseUrl}/hub/alpha/bits/earn`;
// The mock answers an award with { ok, hub, wallet, ref, awarded, balance, duplicate }.
const award = z.object({ ref: z.string(), balance: z.number(), duplicate: z.boolean() });
const strictAward = z.object({ ref: z.string(), newBalance: z.number() });
const client = (schemas: { award: z.ZodType }, validate?: "throw" | "warn" | "off") =>
  new HubServerClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: SECRET, retry: { backoff: 1 }, logLevel: "off", schemas, ...(validate ? { validate } : {}) });
const posts = () => mock.requests.filter((request) => request.method === "POST");

describe("schemas.award on HubServerClient", () => {
  it("an award's answer is the schema's output, and reads keep their lenient types", async () => {
    const hub = client({ award });
    expect(await hub.awardPoints({ wallet: "0xabc", amount: 3, ref: "r1" })).toEqual({ ref: "r1", balance: 3, duplicate: false });
    expect(await hub.getHolder("0xabc")).toMatchObject({ bits: 3, hub: "alpha" });
  });

  it('a misfit under "throw" says the award WAS applied, and it is sent once, never retried', async () => {
    const error = await client({ award: strictAward })
      .awardPoints({ wallet: "0xabc", amount: 3, ref: "r1" })
      .then(() => expect.fail("expected a rejection"), (caught: unknown) => caught as HubSchemaError);
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(error).toMatchObject({ operation: "award", applied: true, mayHaveBeenApplied: true, status: 200 });
    expect(error.message).toContain("the award WAS applied: do not treat it as failed");
    expect(error.issues.map((issue) => issue.path)).toEqual([["newBalance"]]);
    expect(error.data).toMatchObject({ ref: "r1", balance: 3, duplicate: false });
    expect(posts()).toHaveLength(1);
    expect(mock.ledger).toHaveLength(1);
  });

  it("an empty 2xx award answer ({}) is checked too, not skipped", async () => {
    server.use(http.post(EARN_URL, () => new HttpResponse(null, { status: 204 })));
    await expect(client({ award }).awardPoints({ wallet: "0xabc", amount: 3, ref: "r1" })).rejects.toMatchObject({ name: "HubSchemaError", applied: true, data: {} });
  });

  it('"warn" and "off" return the answer as sent', async () => {
    expect(await client({ award: strictAward }, "warn").awardPoints({ wallet: "0xabc", amount: 3, ref: "r1" })).toMatchObject({ ref: "r1", balance: 3 });
    expect(await client({ award: strictAward }, "off").awardPoints({ wallet: "0xabc", amount: 3, ref: "r2" })).toMatchObject({ ref: "r2", balance: 6 });
  });
});

describe("awardMany with schemas.award", () => {
  it("counts a misfit answer as applied, journals it, and lists it in `mismatched`", async () => {
    const entries: JournalEntry[] = [];
    const journal = { load: () => entries, record: (entry: JournalEntry) => void entries.push(entry) };
    const awards = [
      { wallet: "0x1", amount: 1, ref: "m-1" },
      { wallet: "0x2", amount: 2, ref: "m-2" },
    ];
    const summary = await client({ award: strictAward }).awardMany(awards, { concurrency: 1, journal });
    expect(summary).toMatchObject({ total: 2, applied: 2, failed: [] });
    expect(summary.mismatched.map(({ index, error }) => [index, error.name, (error as HubSchemaError).applied])).toEqual([
      [0, "HubSchemaError", true],
      [1, "HubSchemaError", true],
    ]);
    expect(entries.map((entry) => entry.ref)).toEqual(["m-1", "m-2"]);
    expect(posts()).toHaveLength(2);
    // A run again with the journal sends nothing: both are known applied.
    const again = await client({ award: strictAward }).awardMany(awards, { journal });
    expect(again).toMatchObject({ applied: 0, skipped: 2, mismatched: [] });
    expect(posts()).toHaveLength(2);
  });

  it("an answer that fits is no mismatch", async () => {
    const summary = await client({ award }).awardMany([{ wallet: "0x1", amount: 1, ref: "f-1" }]);
    expect(summary).toMatchObject({ applied: 1, failed: [], mismatched: [] });
  });
});
