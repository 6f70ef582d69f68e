// The mock pages in the forms iterateLeaderboard follows that a profile may now declare: Django REST
// framework's `next` URL and Stripe's `has_more` (each row given an `id` to start after).
import { describe, expect, it } from "vitest";
import { iterateLeaderboard, type HubProfile } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";

describe.each([
  ["next", "results", (body: Record<string, unknown>) => expect(body).toMatchObject({ count: 5, next: expect.stringMatching(/\/hub\/alpha\/leaderboard\?limit=2&page=2$/) })],
  ["has-more", "data", (body: Record<string, unknown>) => expect(body).toMatchObject({ has_more: true, data: [expect.objectContaining({ id: "1", rank: 1 }), expect.objectContaining({ id: "2", rank: 2 })] })],
] as const)("a profile's leaderboard pages %s", (pages, rows, firstPage) => {
  const profile: HubProfile = { version: 1, leaderboard: { rows, pages } };
  const { client, mock } = useHubMock({ profile });

  it("the mock writes the form, and iterateLeaderboard follows it to the last row", async () => {
    firstPage((await client().getLeaderboard({ limit: 2 })) as Record<string, unknown>);
    const ranks: unknown[] = [];
    for await (const row of iterateLeaderboard(client({ profile }), { limit: 2 })) ranks.push(row.rank);
    expect(ranks).toEqual([1, 2, 3, 4, 5]);
    expect(mock.requests.filter((request) => request.url.includes("/leaderboard")).length).toBe(4);
  });
});
