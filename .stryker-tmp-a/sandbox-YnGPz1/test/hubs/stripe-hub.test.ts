// @ts-nocheck
import { describe, expect, it } from "vitest";
import { stripeHub } from "./stripe-hub";
import { handClock, useHub } from "./use-hub";

const clock = handClock();
const hub = stripeHub({ now: clock.now });
const { get, award } = useHub(hub);
const body = { wallet: "0xw1", amount: 5, reason: "quest", ref: "r-1" };

describe("the stripe hub", () => {
  it("answers objects and { object: 'list', data } with a Request-Id", async () => {
    const response = await get("/hub/alpha/leaderboard?limit=2");
    expect(response.headers.get("request-id")).toBe("req_1");
    expect(await response.json()).toMatchObject({ object: "list", has_more: true, data: [{ rank: 1 }, { rank: 2 }] });
    expect(await (await get("/hub/alpha")).json()).toMatchObject({ slug: "alpha" });
  });

  it("verifies the signature: a bad one is refused 401 with an error object, nothing applied", async () => {
    const refused = await award(body, { secret: "not-the-secret" });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: { type: "authentication_error", code: "signature_invalid", message: "x-api-signature does not match" } });
    expect(hub.ledger).toHaveLength(0);
    expect(await (await award(body)).json()).toMatchObject({ object: "award", ref: "r-1", balance: 5 });
  });

  it("names the bad parameter in { error: { type, code, message, param } }", async () => {
    const response = await award({ ...body, amount: "5" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: { type: "invalid_request_error", code: "parameter_invalid", message: "amount must be a number in (0, 1e6]", param: "amount" } });
  });

  it("replays a used ref: 200, the first body, Idempotent-Replayed: true; other parameters are an idempotency_error", async () => {
    const first = await award(body);
    const original = await first.json();
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const replay = await award(body);
    expect(replay.status).toBe(200);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(original);
    const conflict = await award({ ...body, wallet: "0xw2" });
    expect(conflict.status).toBe(400);
    expect(await conflict.json()).toMatchObject({ error: { type: "idempotency_error", param: "ref" } });
    expect(hub.ledger).toHaveLength(1);
    expect([hub.balanceOf("0xw1"), hub.balanceOf("0xw2")]).toEqual([5, 0]);
  });

  it("can lose an applied write's answer: the retry is replayed", async () => {
    hub.loseNextWrites(1);
    await expect(award(body)).rejects.toThrow();
    const retry = await award(body);
    expect([retry.status, retry.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
    expect(hub.ledger).toHaveLength(1);
  });

  it("limits 20 a second with X-RateLimit-* (reset as epoch seconds), then 429 rate_limit_error", async () => {
    clock.advance(1000 - (clock.now() % 1000) + 500);
    const answers: Response[] = [];
    for (let i = 0; i < 21; i++) answers.push(await get("/hub/alpha"));
    const reset = String(Math.ceil(clock.now() / 1000));
    expect(["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"].map((name) => answers[0]!.headers.get(name))).toEqual(["20", "19", reset]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(20);
    expect(answers[20]!.status).toBe(429);
    expect(await answers[20]!.json()).toMatchObject({ error: { type: "rate_limit_error" } });
    clock.advance(500);
    expect((await get("/hub/alpha")).headers.get("x-ratelimit-remaining")).toBe("19");
  });
});
