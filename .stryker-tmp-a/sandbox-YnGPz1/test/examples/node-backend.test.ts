// @ts-nocheck
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHubMock } from "public-hub-sdk/mock";
import { questRoute } from "../../examples/node-backend/quest-route";
import { serverClient } from "../helpers/server-client";

// The route runs on a real local port; only its calls to the hub are intercepted by the mock.
const mock = createHubMock();
const msw = setupServer(...mock.handlers);
let app: Server;
let origin: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: (request, print) => void (new URL(request.url).hostname === "127.0.0.1" || print.error()) });
  app = createServer(questRoute(serverClient(mock.baseUrl)));
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
});
afterEach(() => mock.reset());
afterAll(() => {
  msw.close();
  app.close();
});

const complete = (quest: string, body: unknown) =>
  fetch(`${origin}/quests/${quest}/complete`, { method: "POST", body: JSON.stringify(body) });

describe("examples/node-backend/quest-route.ts", () => {
  it("awards a quest once, however often it is completed", async () => {
    const first = await complete("42", { wallet: "0xabc" });
    expect(await first.json()).toEqual({ awarded: 25, duplicate: false, balance: 25 });
    const again = await complete("42", { wallet: "0xabc" });
    expect(await again.json()).toEqual({ awarded: 25, duplicate: true, balance: 25 });
    expect(mock.ledger).toMatchObject([{ ref: "quest-42:0xabc", amount: 25, reason: "quest 42" }]);
  });

  it("answers 400 for a missing wallet, without calling the hub", async () => {
    const response = await complete("42", {});
    expect(response.status).toBe(400);
    expect(mock.requests).toHaveLength(0);
  });

  it("answers 502 with the hub's request id when the hub refuses", async () => {
    mock.failNext(1, { status: 403, body: '{"error":{"code":"forbidden","message":"no"}}', contentType: "application/json" });
    const response = await complete("7", { wallet: "0xabc" });
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: "hub answered 403", requestId: expect.stringMatching(/^req_mock_/) });
  });
});
