// @ts-nocheck
import { afterEach, describe, expect, it } from "vitest";
import worker, { resetWorker, type Env } from "../../examples/edge-worker/worker";
import { useHubMock } from "../helpers/mock-server";

const { mock } = useHubMock();
const env: Env = { HUB_BASE_URL: mock.baseUrl, HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: "demo-secret-alpha" };
const login = (wallet?: string) =>
  worker.fetch(new Request("https://worker.example/daily-login", { method: "POST", body: JSON.stringify({ wallet }) }), env);

afterEach(() => resetWorker());

describe("examples/edge-worker/worker.ts", () => {
  it("grants the daily login once a day", async () => {
    const first = await (await login("0xabc")).json();
    const second = await (await login("0xabc")).json();
    expect(first).toMatchObject({ duplicate: false, balance: 5 });
    expect(second).toMatchObject({ duplicate: true, balance: 5 });
    expect(mock.ledger).toHaveLength(1);
  });

  it("refuses a request without a wallet before calling the hub", async () => {
    const response = await login(undefined);
    expect(response.status).toBe(400);
    expect(mock.requests).toHaveLength(0);
  });

  it("answers 503 with Retry-After when the hub keeps rate limiting", async () => {
    mock.rateLimitNext(5, 120);
    const response = await login("0xabc");
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("120");
  });
});
