import { getEventListeners } from "node:events";
import { delay, http, HttpResponse } from "msw";
import { describe, expect, it, vi } from "vitest";
import { HubAbortError } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock, server, client } = useHubMock();

/** Answers the hub slowly, so concurrent calls overlap; counts what reaches the server. */
function slowHub() {
  const seen: Request[] = [];
  server.use(http.get(`${mock.baseUrl}/hub/alpha`, async ({ request }) => (seen.push(request), await delay(30), HttpResponse.json({ slug: "alpha", n: 1 }))));
  return seen;
}

describe("identical reads in flight share one request", () => {
  it("10 concurrent getHub() → one request; each caller gets its own copy", async () => {
    const seen = slowHub();
    const hub = client();
    const results = await Promise.all(Array.from({ length: 10 }, () => hub.getHub()));
    expect(seen).toHaveLength(1);
    expect(results[0]).toEqual({ slug: "alpha", n: 1 });
    expect(results[0]).not.toBe(results[1]);
    (results[0] as { n: number }).n = 99;
    expect(results[1]).toEqual({ slug: "alpha", n: 1 });
  });

  it("once settled, the next identical read is a new request", async () => {
    const seen = slowHub();
    const hub = client();
    await hub.getHub();
    await hub.getHub();
    expect(seen).toHaveLength(2);
  });

  it("different URLs or per-call settings are not shared", async () => {
    const hub = client();
    await Promise.all([hub.getLeaderboard({ limit: 1 }), hub.getLeaderboard({ limit: 2 }), hub.getHub(), hub.getHub({ timeout: 5_000 })]);
    expect(mock.requests).toHaveLength(4);
  });

  it("the same URL with different per-call timeouts or retries is not shared; the same settings are", async () => {
    const hub = client();
    await Promise.all([
      hub.getHub(),
      hub.getHub({ timeout: 5_000 }),
      hub.getHub({ timeout: 6_000 }),
      hub.getHub({ retry: 0 }),
      hub.getHub({ retry: 1 }),
      hub.getHub({ retry: 1 }),
    ]);
    expect(mock.requests).toHaveLength(5);
  });

  it("one caller aborting leaves the others their answer", async () => {
    const seen = slowHub();
    const hub = client();
    const controller = new AbortController();
    const leaving = hub.getHub({ signal: controller.signal });
    const staying = hub.getHub();
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(HubAbortError);
    await expect(staying).resolves.toMatchObject({ slug: "alpha" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signal.aborted).toBe(false);
  });

  it("a caller without a signal, first or later, keeps the shared request to its end", async () => {
    const seen = slowHub();
    const hub = client();
    const staying = hub.getHub();
    const controller = new AbortController();
    const leaving = hub.getHub({ signal: controller.signal });
    await delay(5);
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(HubAbortError);
    await expect(staying).resolves.toMatchObject({ slug: "alpha" });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signal.aborted).toBe(false);
  });

  it("when every caller aborts, the shared request is cancelled", async () => {
    const seen = slowHub();
    const hub = client();
    const controllers = [new AbortController(), new AbortController()];
    const calls = controllers.map((c) => hub.getHub({ signal: c.signal }));
    await delay(5);
    controllers.forEach((c) => c.abort());
    await Promise.all(calls.map((call) => expect(call).rejects.toBeInstanceOf(HubAbortError)));
    expect(seen).toHaveLength(1);
    expect(seen[0]!.signal.aborted).toBe(true);
  });

  it("can be turned off", async () => {
    const seen = slowHub();
    const hub = client({ dedupeReads: false });
    await Promise.all(Array.from({ length: 3 }, () => hub.getHub()));
    expect(seen).toHaveLength(3);
  });

  it("writes are never shared", async () => {
    const hub = serverClient(mock.baseUrl);
    const award = { wallet: "0xabc", amount: 1, ref: "shared-1" };
    await Promise.all([hub.awardPoints(award), hub.awardPoints(award)]);
    expect(mock.requests.filter((r) => r.method === "POST")).toHaveLength(2);
    expect(mock.ledger).toHaveLength(1);
  });
});

describe("withResponse()", () => {
  it("gives the data, the final response and the request id, for reads and awards", async () => {
    const { data, response, requestId } = await client().getHub().withResponse();
    expect(data).toMatchObject({ slug: "alpha" });
    expect(response.status).toBe(200);
    expect(response.bodyUsed).toBe(true);
    expect(requestId).toBe("req_mock_000001");
    const award = await serverClient(mock.baseUrl).awardPoints({ wallet: "0xabc", amount: 2, ref: "wr-1" }).withResponse();
    expect(award).toMatchObject({ data: { awarded: 2 }, requestId: "req_mock_000002" });
  });

  it("awaiting the call itself still gives just the data", async () => {
    await expect(client().getHolder("0x1111111111111111111111111111111111111111")).resolves.toMatchObject({ holder: true });
  });

  it("a failure rejects withResponse() with the typed error, and no unhandled rejection is left", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    const error = await client({ hub: "nope" }).getHub().withResponse().catch((e: unknown) => e);
    // Node reports unhandled rejections once the microtasks of a turn have run: by the next macrotask.
    await new Promise((resolve) => setImmediate(resolve));
    process.off("unhandledRejection", onUnhandled);
    expect(error).toMatchObject({ name: "NotFoundError", requestId: "req_mock_000001" });
    expect(unhandled).toEqual([]);
  });

  it("bad input rejects both ways, nothing sent", async () => {
    await expect(client().getLeaderboard({ limit: 0 }).withResponse()).rejects.toMatchObject({ name: "HubValidationError" });
    await expect(client().getHolder("")).rejects.toMatchObject({ name: "HubValidationError" });
    expect(mock.requests).toHaveLength(0);
  });

  it("then/catch/finally give plain promises", () => {
    const call = client().getHub();
    const chained = call.then((x) => x);
    expect(chained).not.toHaveProperty("withResponse");
    return chained;
  });
});

describe("a shared read, once every caller left", () => {
  it("is aborted with the last caller's reason, and the next identical read is a new request", async () => {
    const seen = slowHub();
    const hub = client();
    const [first, second] = [new AbortController(), new AbortController()];
    const calls = [hub.getHub({ signal: first.signal }).catch((e: unknown) => e), hub.getHub({ signal: second.signal }).catch((e: unknown) => e)];
    await delay(5);
    first.abort(new Error("first left"));
    second.abort(new Error("second left"));
    expect(await Promise.all(calls)).toMatchObject([{ name: "HubAbortError", cause: new Error("first left") }, { name: "HubAbortError", cause: new Error("second left") }]);
    expect(seen[0]!.signal.aborted).toBe(true);
    await expect(hub.getHub()).resolves.toEqual({ slug: "alpha", n: 1 });
    expect(seen).toHaveLength(2);
  });

  it("a caller's listener on its own signal is gone once its answer came, or it failed", async () => {
    slowHub();
    const hub = client();
    const controller = new AbortController();
    await hub.getHub({ signal: controller.signal });
    await hub.getHolder("", { signal: controller.signal }).catch(() => undefined);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});

describe("a shared read that every caller left, settling late", () => {
  it("does not take the place of the newer identical read: a third caller shares the second request", async () => {
    const seen: Request[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, async ({ request }) => (seen.push(request), await held, HttpResponse.json({ slug: "alpha" }))));
    const hub = client();
    const first = new AbortController();
    const left = hub.getHub({ signal: first.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    first.abort();
    const second = hub.getHub(); // a new shared read, started before the aborted one has settled
    await left;
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    await new Promise((resolve) => setImmediate(resolve)); // the aborted request's own settling has run
    const third = hub.getHub();
    release();
    await Promise.all([second, third]);
    expect(seen).toHaveLength(2);
  });
});
