/**
 * How an app tests itself with `public-hub-sdk/mock`: no server, no network, real signatures.
 */
// @ts-nocheck

import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ForbiddenError, HubClient } from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";
import { HubServerClient } from "public-hub-sdk/server";
import { schemas } from "./hub-schemas";
import { champions, grantDailyLogin } from "./rewards";

// Demo hubs "alpha" and "beta", keys pk_alpha_demo and pk_beta_demo. Given the app's schemas, the
// mock fails the test whose call meets a body that does not fit them.
const mock = createHubMock({ schemas });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

const options = { baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", schemas };
const backend = () => new HubServerClient({ ...options, secret: "demo-secret-alpha", retry: { backoff: 1 } });

describe("daily login bonus", () => {
  it("is granted once a day", async () => {
    expect(await grantDailyLogin(backend(), "0xabc", "2026-11-22")).toEqual({ newlyGranted: true, balance: 5 });
    expect(await grantDailyLogin(backend(), "0xabc", "2026-11-22")).toEqual({ newlyGranted: false, balance: 5 });
    expect(await grantDailyLogin(backend(), "0xabc", "2026-11-23")).toEqual({ newlyGranted: true, balance: 10 });
    expect(mock.ledger.map((entry) => entry.ref)).toEqual(["login-2026-11-22:0xabc", "login-2026-11-23:0xabc"]);
  });

  it("survives a lost answer without granting twice", async () => {
    mock.loseNextWrites(1);
    await grantDailyLogin(backend(), "0xabc", "2026-11-22");
    expect(mock.balanceOf("alpha", "0xabc")).toBe(5);
  });

  it("survives a server clock an hour ahead", async () => {
    mock.setClockOffset(3_600_000);
    await expect(grantDailyLogin(backend(), "0xabc", "2026-11-22")).resolves.toMatchObject({ newlyGranted: true });
  });
});

describe("champions banner", () => {
  it("lists the top stakers", async () => {
    const top = await champions(new HubClient(options), 2);
    expect(top).toEqual(["0x1111111111111111111111111111111111111111", "0x2222222222222222222222222222222222222222"]);
  });

  it("a key of another hub is refused", async () => {
    await expect(champions(new HubClient({ ...options, clientId: "pk_beta_demo" }), 2)).rejects.toBeInstanceOf(ForbiddenError);
  });
});
