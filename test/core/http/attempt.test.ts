import { getEventListeners } from "node:events";
import { delay, http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { HubAbortError } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock, server } = useHubMock();

describe("each attempt's signal", () => {
  it("one signal shared by many calls in flight gets no listener per attempt (a campaign's)", async () => {
    let arrived = 0;
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, async () => (arrived++, await delay(50), HttpResponse.json({ ok: true }))));
    const hub = serverClient(mock.baseUrl);
    const controller = new AbortController();
    const calls = Array.from({ length: 12 }, (_, i) => hub.awardPoints({ wallet: "0xabc", amount: 1, reason: "r", ref: `shared-signal-${i}` }, { signal: controller.signal }));
    while (arrived < 12) await delay(2);
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThan(2);
    await Promise.all(calls);
  });

  it("the call's signal still aborts an attempt in flight", async () => {
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, async () => (await delay(5_000), HttpResponse.json({ ok: true }))));
    const hub = serverClient(mock.baseUrl);
    const controller = new AbortController();
    const call = hub.awardPoints({ wallet: "0xabc", amount: 1, reason: "r", ref: "abort-in-flight" }, { signal: controller.signal });
    await delay(20);
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(HubAbortError);
  });
});
