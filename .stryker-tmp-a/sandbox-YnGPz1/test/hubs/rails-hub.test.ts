// @ts-nocheck
import { describe, expect, it } from "vitest";
import { railsHub } from "./rails-hub";
import { handClock, useHub } from "./use-hub";

const clock = handClock();
const hub = railsHub({ now: clock.now });
const { get, award } = useHub(hub);
const body = { wallet: "0xw1", amount: 5, reason: "quest", ref: "r-1" };

describe("the rails hub", () => {
  it("answers bare objects, the leaderboard as { items }, with an X-Request-Id", async () => {
    const response = await get("/hub/alpha/leaderboard");
    expect(response.headers.get("x-request-id")).toBe("req_1");
    const board = (await response.json()) as { items: unknown[]; total: number };
    expect([board.items.length, board.total]).toEqual([10, 25]);
    expect(await (await get("/hub/alpha/stake-status?wallet=0xstaker02")).json()).toEqual({ wallet: "0xstaker02", staking: true, staked: 24007, rank: 2 });
  });

  it("verifies the signature (a bad one 401 { code, message }) and refuses bad input 422 with errors[].source.pointer", async () => {
    const refused = await award(body, { secret: "not-the-secret" });
    expect([refused.status, await refused.json()]).toEqual([401, { code: "bad_signature", message: "x-api-signature does not match" }]);
    const invalid = await award({ wallet: "", amount: 5, reason: "quest", ref: "r-1" });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toEqual({ errors: [{ code: "invalid", detail: "must be a non-empty string", source: { pointer: "/wallet" } }] });
    expect((await get("/hub/alpha/stake-status")).status).toBe(400);
    expect(hub.ledger).toHaveLength(0);
  });

  it("accepts the spec's other award shape (wallet, kind, ref)", async () => {
    expect(await (await award({ wallet: "0xw1", kind: "daily-login", ref: "k-1" })).json()).toMatchObject({ amount: 5, reason: "daily-login" });
  });

  it("answers a used ref 409 ref_already_used and other parameters 409 ref_conflict, crediting once", async () => {
    expect((await award(body)).status).toBe(200);
    const again = await award(body);
    expect([again.status, await again.json()]).toEqual([409, { code: "ref_already_used", message: "ref already exists" }]);
    const conflict = await award({ ...body, reason: "another" });
    expect([conflict.status, await conflict.json()]).toEqual([409, { code: "ref_conflict", message: "ref r-1 already used with different parameters" }]);
    expect(hub.balanceOf("0xw1")).toBe(5);
  });

  it("can lose an applied write's answer: the retry meets ref_already_used", async () => {
    hub.loseNextWrites(1);
    await expect(award(body)).rejects.toThrow();
    expect(await (await award(body)).json()).toMatchObject({ code: "ref_already_used" });
    expect(hub.ledger).toHaveLength(1);
  });

  it("limits 20 a second with RateLimit-Limit/-Remaining/-Reset (seconds), then 429", async () => {
    clock.advance(1000 - (clock.now() % 1000));
    const answers: Response[] = [];
    for (let i = 0; i < 22; i++) answers.push(await get("/hub/alpha"));
    expect(["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"].map((name) => answers[1]!.headers.get(name))).toEqual(["20", "18", "1"]);
    expect(answers.map((answer) => answer.status)).toEqual([...Array(20).fill(200), 429, 429]);
    expect(await answers[21]!.json()).toEqual({ code: "rate_limited", message: "more than 20 requests in 1 s" });
    expect(answers[21]!.headers.get("retry-after")).toBe("1");
  });
});
