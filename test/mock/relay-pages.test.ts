// The mock pages in Relay's form when a profile says so: pageInfo beside the rows, followed to the last row.
import { describe, expect, it } from "vitest";
import { iterateLeaderboard, type HubProfile } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";

const profile: HubProfile = { version: 1, leaderboard: { rows: "entries", pages: "relay" } };
const { client } = useHubMock({ profile });

describe("a profile's leaderboard pages relay", () => {
  it("the mock writes pageInfo, and iterateLeaderboard follows its endCursor to the last row", async () => {
    expect(await client().getLeaderboard({ limit: 2 })).toMatchObject({ pageInfo: { hasNextPage: true, endCursor: "2" } });
    const ranks: unknown[] = [];
    for await (const row of iterateLeaderboard(client({ profile }), { limit: 2 })) ranks.push(row.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
  });
});
