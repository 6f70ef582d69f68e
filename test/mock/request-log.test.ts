// The mock keeps a bounded request log (issue 35): a long-running `public-hub mock` stays flat.
import { getResponse } from "msw";
import { describe, expect, it } from "vitest";
import { createHubMock } from "public-hub-sdk/mock";

const read = (mock: ReturnType<typeof createHubMock>, i: number) =>
  getResponse(mock.handlers, new Request(`${mock.baseUrl}/hub/alpha?i=${i}`, { headers: { "x-api-key": "pk_alpha_demo" } }));

describe("the mock's request log", () => {
  it("keeps the newest requestLog requests, oldest first", async () => {
    const mock = createHubMock({ requestLog: 3 });
    for (let i = 0; i < 5; i++) await read(mock, i);
    expect(mock.requests.map((request) => new URL(request.url).searchParams.get("i"))).toEqual(["2", "3", "4"]);
  });

  it("keeps 1,000 by default; Infinity keeps all", async () => {
    const bounded = createHubMock();
    const whole = createHubMock({ requestLog: Infinity });
    for (let i = 0; i < 1_001; i++) await Promise.all([read(bounded, i), read(whole, i)]);
    expect(bounded.requests).toHaveLength(1_000);
    expect(new URL(bounded.requests[0]!.url).searchParams.get("i")).toBe("1");
    expect(whole.requests).toHaveLength(1_001);
  });
});
