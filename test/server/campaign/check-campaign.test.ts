import { describe, expect, it } from "vitest";
import { HubValidationError } from "public-hub-sdk";
import { dryRunAwards, HubServerClient, type CampaignJournal } from "public-hub-sdk/server";

// What `awardMany` and `dryRunAwards` refuse before anything is read or sent (the rules in src/server/campaign/errors.ts).
const server = new HubServerClient({ baseUrl: "https://hub.example.com", clientId: "pk_alpha_demo", hub: "alpha", secret: "s", logLevel: "off" });
const refused = (run: Promise<unknown>) => run.then(() => expect.unreachable("accepted"), (error: unknown) => error as HubValidationError);
const journal: CampaignJournal = { load: () => [], record: () => undefined };

describe("a campaign's input, checked before anything is read or sent", () => {
  it.each([["a string", "abc"], ["a number", 5], ["null", null], ["a plain object", {}]])("awards that are %s are refused", async (_name, awards) => {
    const error = await refused(server.awardMany(awards as never));
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error.message).toBe("Invalid campaign: awards: awards must be an Iterable or AsyncIterable (an array, a generator, a stream of rows)");
    expect(error.issues).toEqual([{ path: ["awards"], code: "invalid_type", message: "awards must be an Iterable or AsyncIterable (an array, a generator, a stream of rows)" }]);
  });

  it("concurrency is at most 10,000, 10,000 itself allowed", async () => {
    const error = await refused(server.awardMany([], { concurrency: 10_001 }));
    expect(error.issues).toEqual([{ path: ["concurrency"], code: "invalid_type", message: "concurrency must be an integer from 1 to 10000" }]);
    await expect(server.awardMany([], { concurrency: 10_000 })).resolves.toMatchObject({ total: 0 });
  });

  it.each([-1, 1.5, "3", 2 ** 53])("total %j is refused, by awardMany and dryRunAwards alike", async (total) => {
    for (const [run, what] of [[server.awardMany([], { total: total as number }), "campaign options"], [dryRunAwards([], { total: total as number }), "dry run options"]] as const) {
      const error = await refused(run);
      expect(error.message).toBe(`Invalid ${what}: total: total must be an integer ≥ 0`);
      expect(error.issues).toEqual([{ path: ["total"], code: "invalid_type", message: "total must be an integer ≥ 0" }]);
    }
  });

  it("total 0 is allowed", async () => {
    await expect(dryRunAwards([], { total: 0 })).resolves.toMatchObject({ total: 0 });
  });

  it.each([["null", null], ["an object without record", { load: () => [] }], ["an object whose record is no function", { load: () => [], record: 1 }], ["a number", 7], ["a function, even with load and record", Object.assign(() => undefined, { load: () => [], record: () => undefined })]])("a journal that is %s is refused", async (_name, given) => {
    const error = await refused(dryRunAwards([], { journal: given as never }));
    expect(error.issues).toEqual([{ path: ["journal"], code: "invalid_type", message: "journal must be a file path or a CampaignJournal (with load and record methods)" }]);
  });

  it("a CampaignJournal object (load and record) is a journal", async () => {
    await expect(dryRunAwards([{ wallet: "0xabc", amount: 1, ref: "r1" }], { journal, hub: "alpha" })).resolves.toMatchObject({ wouldSend: 1 });
  });

  it("hub is a dry run's option only, and a string", async () => {
    const dry = await refused(dryRunAwards([], { hub: 5 as never }));
    expect(dry.issues).toEqual([{ path: ["hub"], code: "invalid_type", message: "hub must be a hub slug" }]);
    const campaign = await refused(server.awardMany([], { hub: 5 } as never));
    expect(campaign.issues).toEqual([{ path: ["hub"], code: "unrecognized_keys", message: 'unknown option "hub"' }]);
  });

  it("dryRun of any value is refused by awardMany, pointing at dryRunAwards", async () => {
    for (const dryRun of [true, "yes"]) {
      const error = await refused(server.awardMany([], { dryRun } as never));
      expect(error.issues).toEqual([{ path: ["dryRun"], code: "custom", message: "awardMany has no dryRun: use dryRunAwards, which sends nothing" }]);
    }
  });
});
