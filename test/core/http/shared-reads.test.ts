import { getEventListeners } from "node:events";
import { delay, http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { HubAbortError } from "public-hub-sdk";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";
import { SharedReads } from "../../../src/core/http/shared-reads";

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
    await delay(20);
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

describe("SharedReads, unit by unit", () => {
  const deferred = <T>() => {
    let resolve!: (value: T) => void;
    let reject!: (reason: unknown) => void;
    const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };

  it("starts once per key while in flight, again once settled, and separately per key", async () => {
    const shared = new SharedReads<string>();
    const starts: string[] = [];
    const first = deferred<string>();
    const start = (name: string, result: Promise<string>) => () => (starts.push(name), result);
    const a = shared.share("k", start("k1", first.promise));
    const b = shared.share("k", start("k2", Promise.resolve("never")));
    const other = shared.share("j", start("j1", Promise.resolve("j")));
    first.resolve("one");
    expect(await Promise.all([a, b, other])).toEqual(["one", "one", "j"]);
    expect(await shared.share("k", start("k3", Promise.resolve("two")))).toBe("two");
    expect(starts).toEqual(["k1", "j1", "k3"]);
  });

  it("a failure reaches every caller, and the next call starts afresh", async () => {
    const shared = new SharedReads<string>();
    const failing = deferred<string>();
    const a = shared.share("k", () => failing.promise);
    const b = shared.share("k", () => Promise.resolve("unused"));
    failing.reject(new Error("down"));
    await expect(a).rejects.toThrow("down");
    await expect(b).rejects.toThrow("down");
    await expect(shared.share("k", () => Promise.resolve("up"))).resolves.toBe("up");
  });

  it("an already aborted caller is refused at once, and nothing starts", async () => {
    const shared = new SharedReads<string>();
    const controller = new AbortController();
    controller.abort("gone");
    let started = false;
    const error = await shared.share("k", () => ((started = true), Promise.resolve("x")), controller.signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubAbortError);
    expect((error as HubAbortError).cause).toBe("gone");
    expect(started).toBe(false);
  });

  it("the shared request is aborted only when its last caller leaves, with that caller's reason", async () => {
    const shared = new SharedReads<string>();
    const pending = deferred<string>();
    let signal: AbortSignal | undefined;
    const one = new AbortController();
    const two = new AbortController();
    const a = shared.share("k", (s) => ((signal = s), pending.promise), one.signal);
    const b = shared.share("k", () => Promise.resolve("unused"), two.signal);
    one.abort("first left");
    await expect(a).rejects.toMatchObject({ name: "HubAbortError", cause: "first left" });
    expect(signal!.aborted).toBe(false);
    two.abort("second left");
    await expect(b).rejects.toMatchObject({ name: "HubAbortError", cause: "second left" });
    expect(signal!.aborted).toBe(true);
    expect(signal!.reason).toBe("second left");
  });

  it("after every caller left, the key is free at once: a new call starts a new request, and the old one settling later does not free the new one", async () => {
    const shared = new SharedReads<string>();
    const old = deferred<string>();
    const controller = new AbortController();
    const abandoned = shared.share("k", () => old.promise, controller.signal);
    controller.abort();
    await expect(abandoned).rejects.toBeInstanceOf(HubAbortError);
    const fresh = deferred<string>();
    const starts: string[] = [];
    const second = shared.share("k", () => (starts.push("second"), fresh.promise));
    old.reject(new Error("aborted"));
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const third = shared.share("k", () => (starts.push("third"), Promise.resolve("third")));
    fresh.resolve("fresh");
    expect(await Promise.all([second, third])).toEqual(["fresh", "fresh"]);
    expect(starts).toEqual(["second"]);
  });

  it("a caller that stays gets the answer after another caller left", async () => {
    const shared = new SharedReads<string>();
    const pending = deferred<string>();
    const leaving = new AbortController();
    const staying = new AbortController();
    const a = shared.share("k", () => pending.promise, leaving.signal);
    const b = shared.share("k", () => Promise.resolve("unused"), staying.signal);
    leaving.abort();
    await expect(a).rejects.toBeInstanceOf(HubAbortError);
    pending.resolve("answer");
    await expect(b).resolves.toBe("answer");
    staying.abort(); // after settling: changes nothing
    await expect(b).resolves.toBe("answer");
  });
});

describe("abort listeners of shared reads", () => {
  it("a caller's listener is gone once its answer came, or it failed", async () => {
    const shared = new SharedReads<string>();
    const controller = new AbortController();
    await shared.share("k", () => Promise.resolve("x"), controller.signal);
    await shared.share("j", () => Promise.reject(new Error("no")), controller.signal).catch(() => undefined);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
