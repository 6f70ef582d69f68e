// @ts-nocheck
import { describe, expect, it } from "vitest";
import { ietfHub } from "./ietf-hub";
import { rawClient } from "./raw-client";
import { handClock, useHub } from "./use-hub";

const clock = handClock();
const hub = ietfHub({ now: clock.now });
const at = handClock();
const quiet = ietfHub({ baseUrl: "https://quiet.hub.test/api/v1", now: at.now, rateLimit: { limit: 2, windowMs: 60_000 }, retryAfter: false, duplicateAs: "208" });
const { get, award } = useHub(hub, quiet);
const problemOf = async (response: Response) => ({ status: response.status, type: response.headers.get("content-type"), body: await response.json() });
const body = { wallet: "0xw1", amount: 5, reason: "quest", ref: "r-1" };

describe("the ietf hub", () => {
  it("wraps every success in { data, meta }, with snake_case fields and a Request-Id", async () => {
    const response = await get("/hub/alpha/holder/0xw1");
    expect(response.headers.get("request-id")).toBe("req_1");
    expect(await response.json()).toEqual({ data: { wallet: "0xw1", holder: false, bits_balance: 0 }, meta: { request_id: "req_1" } });
    const board = (await (await get("/hub/alpha/leaderboard?limit=3")).json()) as { data: { rows: Array<{ rank: number }> } };
    expect(board.data.rows.map((row) => row.rank)).toEqual([1, 2, 3]);
    expect(await (await fetch(hub.baseUrl)).json()).toMatchObject({ data: { version: "v1" } });
  });

  it("verifies the signature: a good award is applied, a bad one or a stale timestamp refused as a 401 problem", async () => {
    expect((await award(body)).status).toBe(200);
    expect(await problemOf(await award({ ...body, ref: "r-2" }, { secret: "not-the-secret" }))).toMatchObject({
      status: 401,
      type: "application/problem+json",
      body: { type: "https://ietf.hub.test/problems/bad-signature", title: "Unauthorized", status: 401 },
    });
    const stale = String(Math.floor(clock.now() / 1000) - 301); // the hub reads its own clock
    expect((await award({ ...body, ref: "r-3" }, { timestamp: stale })).status).toBe(401);
    expect(hub.ledger.map((row) => row.ref)).toEqual(["r-1"]);
    expect(hub.balanceOf("0xw1")).toBe(5);
  });

  it("answers bad input 400 with errors[] of pointer and detail; no key 401; another hub 403; an unknown one 404", async () => {
    expect(await problemOf(await award({ ...body, amount: 0 }))).toMatchObject({
      status: 400,
      body: { type: "https://ietf.hub.test/problems/invalid-award", errors: [{ pointer: "#/amount", detail: "must be a number in (0, 1e6]" }] },
    });
    expect((await get("/hub/alpha", {})).status).toBe(401);
    expect((await get("/hub/beta")).status).toBe(403);
    expect((await get("/hub/gamma")).status).toBe(404);
    expect(hub.ledger).toHaveLength(0);
  });

  it("answers a used ref 409 duplicate-ref, the same ref with other parameters 409 ref-conflict, and credits once", async () => {
    await award(body);
    expect(await problemOf(await award(body))).toMatchObject({ status: 409, body: { type: "https://ietf.hub.test/problems/duplicate-ref" } });
    expect(await problemOf(await award({ ...body, amount: 6 }))).toMatchObject({ status: 409, body: { type: "https://ietf.hub.test/problems/ref-conflict" } });
    expect(hub.ledger).toHaveLength(1);
    expect(hub.balanceOf("0xw1")).toBe(5);
  });

  it("can lose an applied write's answer: the retry meets the duplicate", async () => {
    hub.loseNextWrites(1);
    await expect(award(body)).rejects.toThrow();
    expect(hub.ledger).toHaveLength(1);
    expect((await award(body)).status).toBe(409);
    expect(hub.requests.map((request) => request.status)).toEqual([0, 409]);
  });

  it("limits 20 a second with the IETF fields, 429 beyond with Retry-After, and lets through in the next window", async () => {
    clock.advance(1000 - (clock.now() % 1000) + 200); // 800 ms left in this window
    const answers: Response[] = [];
    for (let i = 0; i < 21; i++) answers.push(await get("/hub/alpha"));
    expect(answers[0]!.headers.get("ratelimit-policy")).toBe('"default";q=20;w=1');
    expect(answers[0]!.headers.get("ratelimit")).toBe('"default";r=19;t=1');
    expect(answers[19]!.headers.get("ratelimit")).toBe('"default";r=0;t=1');
    expect(answers.slice(0, 20).every((answer) => answer.status === 200)).toBe(true);
    expect(await problemOf(answers[20]!)).toMatchObject({ status: 429, body: { type: "https://ietf.hub.test/problems/rate-limited" } });
    expect(answers[20]!.headers.get("retry-after")).toBe("1");
    clock.advance(800);
    expect((await get("/hub/alpha")).status).toBe(200);
  });
});

describe("the ietf hub's options", () => {
  const client = rawClient(quiet);

  it("a 429 without Retry-After, a window of 60 s announced as w=60, a duplicate answered 208 with the first answer", async () => {
    const first = await client.award(body);
    const original = await first.json();
    expect(first.headers.get("ratelimit-policy")).toBe('"default";q=2;w=60');
    const again = await client.award(body);
    expect(again.status).toBe(208);
    expect(await again.json()).toEqual(original);
    const limited = await client.get("/hub/alpha");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeNull();
    expect(quiet.ledger).toHaveLength(1);
  });
});
