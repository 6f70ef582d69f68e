import { describe, expect, it } from "vitest";
import * as z from "zod";
import { HubClient, ServerError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import type { StandardSchemaV1 } from "../../src/core/types/standard-schema";
import { schemaDrift } from "../../src/mock/schema-drift";
import { failing } from "../helpers/failing-schema";
import { useHubMock } from "../helpers/mock-server";
import { SECRET } from "../helpers/server-client";

// One schemas module for the app's clients and the mock, as the README shows. The mock serves
// holder { hub, wallet, holder, tokens, bits } and stake { hub, wallet, staking, staked, rank }.
const schemas = {
  holder: z.object({ wallet: z.string(), bits: z.number() }),
  // Drifted: the mock's hub config has no `owner`, its stake status no `locked`.
  hub: z.object({ slug: z.string(), owner: z.string() }),
  stakeStatus: z.object({ staked: z.number(), locked: z.boolean() }),
  award: z.object({ ref: z.string(), balance: z.number() }),
};
const { mock } = useHubMock({ schemas });
const options = { baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", retry: { backoff: 1 }, logLevel: "off" } as const;

describe("createHubMock({ schemas })", () => {
  it("serves a body that fits its schema as usual", async () => {
    const hub = new HubClient({ ...options, schemas });
    await expect(hub.getHolder("0xabc")).resolves.toEqual({ wallet: "0xabc", bits: 0 });
    const server = new HubServerClient({ ...options, secret: SECRET, schemas });
    await expect(server.awardPoints({ wallet: "0xabc", amount: 2, ref: "r1" })).resolves.toEqual({ ref: "r1", balance: 2 });
  });

  it("fails the call that met a drifted body at once (501, not retried), naming every field", async () => {
    // A client that checks nothing itself (production settings) still fails in the test.
    const hub = new HubClient({ ...options, validate: "off" });
    const error = await hub.getStakeStatus("0xabc").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 501, code: "mock_schema_drift" });
    expect((error as ServerError).message).toMatch(/the stakeStatus body it serves does not fit schemas\.stakeStatus \(locked: .*expected boolean.*\)/);
    expect(mock.requests).toHaveLength(1);
  });

  it("checks the hub configuration it serves from its data", async () => {
    const error = await new HubClient(options).getHub().catch((caught: unknown) => caught);
    expect((error as ServerError).message).toMatch(/the hub body it serves does not fit schemas\.hub \(owner: /);
  });

  it("an operation without a schema is served unchecked", async () => {
    await expect(new HubClient(options).getLeaderboard({ limit: 1 })).resolves.toMatchObject({ entries: [expect.objectContaining({ rank: 1 })] });
  });
});

describe("schemaDrift messages", () => {
  it("names each issue by its dotted path, (root) without one, joined by '; '", async () => {
    const schema = failing([
      { message: "Expected number", path: ["entries", 0, { key: "staked" }] },
      { message: "Required", path: [] },
      { message: "Unknown" },
    ]);
    expect(await schemaDrift({ leaderboard: schema }, "leaderboard", {})).toBe(
      "public-hub-sdk/mock: the leaderboard body it serves does not fit schemas.leaderboard (entries.0.staked: Expected number; (root): Required; (root): Unknown): the mock's data and the declared shapes have drifted apart",
    );
  });

  it("no schema or a fitting body is no drift", async () => {
    const fits: StandardSchemaV1 = { "~standard": { version: 1, vendor: "edge-test", validate: (value) => ({ value }) } };
    expect(await schemaDrift({}, "hub", {})).toBeUndefined();
    expect(await schemaDrift({ hub: fits }, "hub", {})).toBeUndefined();
  });
});
