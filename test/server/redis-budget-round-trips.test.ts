// A lone process commits its pace in one round trip: the pace it read or committed last is the one
// it compares against, so no exchange is refused and read again when nobody else wrote.
import { describe, expect, it } from "vitest";
import { HubServerClient, redisBudget } from "public-hub-sdk/server";
import { LuaRedis } from "../helpers/lua-redis";
import { SECRET } from "../helpers/server-client";

const fetch = (async () => Response.json({ slug: "alpha" })) as unknown as typeof globalThis.fetch;

describe("a budget shared through Redis, one process alone", () => {
  it("reads the pace once, then commits each step in one script: 1 + 2 per read", async () => {
    const redis = new LuaRedis();
    const client = new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk_alpha", hub: "alpha", secret: SECRET, fetch, logLevel: "off", budget: redisBudget(redis) });
    for (let i = 0; i < 3; i++) await client.getHub();
    // One read, then each read's turn and what its answer taught: one commit each.
    expect(redis.evals).toBe(1 + 3 * 2);
  });
});
