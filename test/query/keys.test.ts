import { hashKey } from "@tanstack/query-core";
import { describe, expect, it } from "vitest";
import { HubClient, HubValidationError } from "public-hub-sdk";
import { hubKeys, hubQueries } from "public-hub-sdk/query";
import { useHubMock } from "../helpers/mock-server";
import { SECRET, serverClient } from "../helpers/server-client";

const BASE = "https://hub.example.com/api/v1";
const alpha = new HubClient({ baseUrl: `${BASE}/`, clientId: "pk_alpha_demo", hub: "alpha" });
const WALLET = "0x1111111111111111111111111111111111111111";
const { mock } = useHubMock();

const refusal = (scope: unknown) => {
  try {
    hubKeys.all(scope as never);
  } catch (error) {
    return error;
  }
  throw new Error("hubKeys.all accepted the scope");
};

describe("hubKeys", () => {
  it("roots every key at public-hub, the client's normalised base address and its hub", () => {
    const root = ["public-hub", BASE, "alpha"];
    expect(hubKeys.all(alpha)).toEqual(root);
    expect(hubKeys.discover(alpha)).toEqual([...root, "discover"]);
    expect(hubKeys.hub(alpha)).toEqual([...root, "hub"]);
    expect(hubKeys.leaderboard(alpha, { limit: 10 })).toEqual([...root, "leaderboard", { limit: 10 }]);
    expect(hubKeys.holder(alpha, WALLET)).toEqual([...root, "holder", WALLET]);
    expect(hubKeys.stakeStatus(alpha, WALLET)).toEqual([...root, "stake-status", WALLET]);
  });

  it("gives one key to leaderboard(), leaderboard({}) and leaderboard({ limit: undefined })", () => {
    const hashes = [hubKeys.leaderboard(alpha), hubKeys.leaderboard(alpha, {}), hubKeys.leaderboard(alpha, { limit: undefined } as never)].map(hashKey);
    expect(new Set(hashes).size).toBe(1);
    expect(hashKey(hubKeys.leaderboard(alpha, { limit: 10 }))).not.toBe(hashes[0]);
    expect(hashKey(hubKeys.leaderboard(alpha, { limit: 10, extra: 1 } as never))).toBe(hashKey(hubKeys.leaderboard(alpha, { limit: 10 })));
  });

  it("separates hubs and servers", () => {
    const beta = new HubClient({ baseUrl: BASE, clientId: "pk_beta_demo", hub: "beta" });
    const other = new HubClient({ baseUrl: "https://other.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha" });
    const hashes = [alpha, beta, other].map((client) => hashKey(hubKeys.hub(client)));
    expect(new Set(hashes).size).toBe(3);
  });

  it("are the keys hubQueries uses", () => {
    const q = hubQueries(alpha);
    expect(q.discover().queryKey).toEqual(hubKeys.discover(alpha));
    expect(q.hub().queryKey).toEqual(hubKeys.hub(alpha));
    expect(q.leaderboard().queryKey).toEqual(hubKeys.leaderboard(alpha, {}));
    expect(q.leaderboard({ limit: 3 }).queryKey).toEqual(hubKeys.leaderboard(alpha, { limit: 3 }));
    expect(q.holder(WALLET).queryKey).toEqual(hubKeys.holder(alpha, WALLET));
    expect(q.stakeStatus(WALLET).queryKey).toEqual(hubKeys.stakeStatus(alpha, WALLET));
  });

  it("hold no credential, even for a server client", () => {
    const server = serverClient(BASE);
    const q = hubQueries(server);
    const keys = [hubKeys.all(server), q.discover().queryKey, q.hub().queryKey, q.leaderboard().queryKey, q.holder(WALLET).queryKey, q.stakeStatus(WALLET).queryKey];
    const text = JSON.stringify(keys);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("pk_alpha_demo");
  });

  it("refuse something that is not a client with HubValidationError", () => {
    expect(() => hubKeys.all(undefined as never)).toThrow(HubValidationError);
    expect(() => hubKeys.holder({ baseUrl: BASE } as never, WALLET)).toThrow(HubValidationError);
    expect(() => hubQueries(null as never)).toThrow(/expected a HubClient/);
  });
});

describe("hubKeys refusing a scope", () => {
  it("says which input is wrong, at the root of the scope, as an invalid_type issue", () => {
    const error = refusal(undefined);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues).toEqual([{ path: [], code: "invalid_type", message: "expected a HubClient (with baseUrl and hub)" }]);
    expect((error as HubValidationError).message).toMatch(/^Invalid query scope: /);
  });

  it("needs a string baseUrl as well as a string hub", () => {
    expect(refusal({ hub: "alpha" })).toBeInstanceOf(HubValidationError);
    expect(refusal({ baseUrl: 42, hub: "alpha" })).toBeInstanceOf(HubValidationError);
    expect(() => hubKeys.hub({ hub: "alpha" } as never)).toThrow(HubValidationError);
    expect(() => hubQueries({ baseUrl: new URL(mock.baseUrl), hub: "alpha" } as never)).toThrow(/expected a HubClient/);
  });
});
