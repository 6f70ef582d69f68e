// @ts-nocheck
// The SDK against hubs of the project's own (test/hubs), each speaking a dialect a real hub may
// choose where the spec is silent: with nothing configured but the envelope where one is used.
import { describe, expect, it } from "vitest";
import { HubApiError, leaderboardRows } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { ietfHub, railsHub, stripeHub, type TestHub } from "../hubs";
import { useHub } from "../hubs/use-hub";

const ietf = ietfHub({ rateLimit: false });
const stripe = stripeHub({ baseUrl: "https://stripe.hub.test/api/v1", rateLimit: false });
const rails = railsHub({ baseUrl: "https://rails.hub.test/api/v1", rateLimit: false });
useHub(ietf, stripe, rails);

const clientOf = (hub: TestHub, unwrap?: string) =>
  new HubServerClient({ baseUrl: hub.baseUrl, clientId: hub.clientId, hub: hub.hub, secret: hub.secret, retry: { backoff: 1 }, logLevel: "off", ...(unwrap && { unwrap }) });

const dialects: Array<[string, TestHub, string | undefined, string]> = [
  ["ietf (envelope, problem+json, 409 duplicate-ref)", ietf, "data", "request-id"],
  ["stripe (Idempotent-Replayed, { error: { param } })", stripe, undefined, "request-id"],
  ["rails (422 errors[], 409 ref_already_used)", rails, undefined, "x-request-id"],
];

describe.each(dialects)("a hub of the %s dialect", (_name, hub, unwrap) => {
  const award = (ref: string) => ({ wallet: "0xabc", amount: 5, reason: "quest", ref });

  it("a used ref is an outcome: the second call resolves with duplicate; one credit", async () => {
    const client = clientOf(hub, unwrap);
    expect((await client.awardPoints(award("a-1")).withResponse()).duplicate).toBe(false);
    const again = await client.awardPoints(award("a-1")).withResponse();
    expect(again).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: false });
    expect(hub.ledger.filter((row) => row.ref === "a-1")).toHaveLength(1);
  });

  it("applied, its answer lost, retried: duplicate and applied earlier, credited once", async () => {
    hub.loseNextWrites(1);
    const result = await clientOf(hub, unwrap).awardPoints(award("a-2")).withResponse();
    expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: true, attempts: 2 });
    expect(hub.ledger.filter((row) => row.ref === "a-2")).toHaveLength(1);
  });

  it("the ref reused with other parameters is a conflict: an error, nothing credited again", async () => {
    const client = clientOf(hub, unwrap);
    await client.awardPoints(award("a-3"));
    const error = await client.awardPoints({ ...award("a-3"), amount: 9 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubApiError);
    expect(hub.ledger.filter((row) => row.ref === "a-3")).toHaveLength(1);
  });

  it("a bad award's error names its field; the request id shows", async () => {
    const error = (await clientOf(hub, unwrap).awardPoints({ wallet: "0xabc", amount: 5, reason: "x", ref: "a-4" }, { retry: 0 }).then(() => undefined, (e: unknown) => e)) as HubApiError | undefined;
    // The SDK refuses nothing here (the amount is valid to it): a hub's own bound (≤ 1e6) is tested below.
    expect(error).toBeUndefined();
    const refused = (await clientOf(hub, unwrap).awardPoints({ wallet: "0xabc", amount: 2e6, reason: "x", ref: "a-5" }).catch((e: unknown) => e)) as HubApiError;
    expect(refused).toBeInstanceOf(HubApiError);
    expect(refused.issues.map((issue) => issue.path.join("."))).toContain("amount");
    expect(refused.message).toContain("amount");
    expect(refused.requestId).toEqual(expect.any(String));
  });

  it("the leaderboard's rows are found, never an empty board by mistake", async () => {
    const board = await clientOf(hub, unwrap).getLeaderboard({ limit: 3 });
    expect(leaderboardRows(board)).toHaveLength(3);
  });
});
