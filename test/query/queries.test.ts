import { dehydrate, hydrate, isCancelledError, QueryClient, QueryObserver } from "@tanstack/query-core";
import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BadRequestError, HubAbortError, HubValidationError, leaderboardRows } from "public-hub-sdk";
import { hubKeys, hubQueries, type HubQueryContext } from "public-hub-sdk/query";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, server, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";
/** Any one read's options, so that a table of them can be run through one test. */
type AnyRead = () => { queryKey: readonly unknown[]; queryFn: (context: HubQueryContext) => Promise<unknown>; retry: false };
const clients: QueryClient[] = [];
const queryClient = (options?: ConstructorParameters<typeof QueryClient>[0]) => {
  const created = new QueryClient(options);
  clients.push(created);
  return created;
};
afterEach(() => {
  for (const created of clients.splice(0)) created.clear();
});
const paths = () => mock.requests.map((request) => new URL(request.url).pathname + new URL(request.url).search);

describe("hubQueries with a real QueryClient", () => {
  it("fetches every read through the client and caches it under its hubKeys key", async () => {
    const hub = client();
    const q = hubQueries(hub);
    const qc = queryClient();
    const config = await qc.fetchQuery(q.hub());
    const board = await qc.fetchQuery(q.leaderboard({ limit: 3 }));
    const holder = await qc.fetchQuery(q.holder(WALLET));
    const stake = await qc.fetchQuery(q.stakeStatus(WALLET));
    const doc = await qc.fetchQuery(q.discover());

    expect(config.name).toBe("Alpha Hub");
    expect(leaderboardRows(board)).toHaveLength(3);
    expect(holder.bits).toBe(250);
    expect(stake.staked).toBe(52_000);
    expect(doc.version).toBe("v1");
    expect(qc.getQueryData(hubKeys.hub(hub))?.name).toBe("Alpha Hub");
    expect(qc.getQueryData(hubKeys.holder(hub, WALLET))).toEqual(holder);
    expect(paths()).toEqual([
      "/api/v1/hub/alpha",
      "/api/v1/hub/alpha/leaderboard?limit=3",
      `/api/v1/hub/alpha/holder/${WALLET}`,
      `/api/v1/hub/alpha/stake-status?wallet=${WALLET}`,
      "/api/v1",
    ]);
    expect(mock.requests.slice(0, 4).every((request) => request.headers["x-api-key"] === "pk_alpha_demo")).toBe(true);
  });

  it("shares one cache entry between leaderboard() and leaderboard({})", async () => {
    const q = hubQueries(client());
    const qc = queryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const first = await qc.fetchQuery(q.leaderboard());
    const second = await qc.fetchQuery(q.leaderboard({}));
    expect(second).toBe(first);
    expect(paths()).toEqual(["/api/v1/hub/alpha/leaderboard"]);
  });

  it("prefetches on a server and hands the data to a browser's cache (dehydrate/hydrate)", async () => {
    const hub = client();
    const onServer = queryClient();
    await onServer.prefetchQuery(hubQueries(hub).hub());
    await onServer.prefetchQuery(hubQueries(hub).leaderboard({ limit: 2 }));
    const inBrowser = queryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
    hydrate(inBrowser, JSON.parse(JSON.stringify(dehydrate(onServer))));
    const before = mock.requests.length;

    const board = await inBrowser.fetchQuery(hubQueries(hub).leaderboard({ limit: 2 }));
    expect(leaderboardRows(board)).toHaveLength(2);
    expect(inBrowser.getQueryData(hubKeys.hub(hub))?.name).toBe("Alpha Hub");
    expect(mock.requests.length).toBe(before);
  });

  it("refetches what hubKeys.holder invalidates after an award, and nothing else", async () => {
    const hub = client();
    const q = hubQueries(hub);
    const qc = queryClient();
    const holder = new QueryObserver(qc, q.holder(WALLET));
    const observers = [holder, new QueryObserver(qc, q.hub()), new QueryObserver(qc, q.holder("0x2222222222222222222222222222222222222222"))];
    const unsubscribe = observers.map((observer) => observer.subscribe(() => {}));
    await vi.waitFor(() => expect(observers.every((observer) => observer.getCurrentResult().isSuccess)).toBe(true));
    expect(holder.getCurrentResult().data?.bits).toBe(250);
    const before = mock.requests.length;

    await serverClient(mock.baseUrl).awardPoints({ wallet: WALLET, amount: 10, reason: "quest", ref: "quest-1" });
    await qc.invalidateQueries({ queryKey: hubKeys.holder(hub, WALLET) });

    expect(holder.getCurrentResult().data?.bits).toBe(260);
    expect(paths().slice(before)).toEqual(["/api/v1/hub/alpha/bits/earn", `/api/v1/hub/alpha/holder/${WALLET}`]);
    for (const stop of unsubscribe) stop();
  });

  it("invalidates every leaderboard with hubKeys.leaderboard(hub), and only this hub with hubKeys.all", async () => {
    const alpha = client();
    const beta = client({ clientId: "pk_beta_demo", hub: "beta" });
    const qc = queryClient();
    await Promise.all([
      qc.fetchQuery(hubQueries(alpha).leaderboard()),
      qc.fetchQuery(hubQueries(alpha).leaderboard({ limit: 2 })),
      qc.fetchQuery(hubQueries(alpha).hub()),
      qc.fetchQuery(hubQueries(beta).hub()),
    ]);
    const invalidated = () =>
      qc
        .getQueryCache()
        .getAll()
        .filter((query) => query.state.isInvalidated)
        .map((query) => query.queryKey.slice(2, 5));

    await qc.invalidateQueries({ queryKey: hubKeys.leaderboard(alpha) });
    expect(invalidated()).toEqual([
      ["alpha", "leaderboard", {}],
      ["alpha", "leaderboard", { limit: 2 }],
    ]);
    await qc.invalidateQueries({ queryKey: hubKeys.all(alpha) });
    expect(invalidated()).toHaveLength(3);
    expect(invalidated().some((key) => key[0] === "beta")).toBe(false);
  });
});

describe("validation and retries", () => {
  it("builds options for a bad limit or wallet without throwing, and fails them with HubValidationError when run, sending nothing", async () => {
    const q = hubQueries(client());
    const badLimit = q.leaderboard({ limit: 0 });
    const badWallet = q.holder("");
    const qc = queryClient();
    await expect(qc.fetchQuery(badLimit)).rejects.toBeInstanceOf(HubValidationError);
    await expect(qc.fetchQuery(badWallet)).rejects.toBeInstanceOf(HubValidationError);
    await expect(qc.fetchQuery(q.stakeStatus(" "))).rejects.toThrow(/wallet/);
    expect(mock.requests).toHaveLength(0);
  });

  it("lets enabled: false hold back a query whose input does not exist yet", async () => {
    const qc = queryClient();
    const observer = new QueryObserver(qc, { ...hubQueries(client()).holder(""), enabled: false });
    const stop = observer.subscribe(() => {});
    await delay(10);
    expect(observer.getCurrentResult().status).toBe("pending");
    expect(mock.requests).toHaveLength(0);
    stop();
  });

  it("leaves retrying to the client: a 503 is retried by HubClient only, not again by TanStack", async () => {
    mock.failNext(100, { status: 503 });
    const qc = queryClient(); // TanStack's default for observers is 3 retries
    const observer = new QueryObserver(qc, hubQueries(client({ retry: { limit: 1, backoff: 1 } })).hub());
    const stop = observer.subscribe(() => {});
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe("error"));
    expect(observer.getCurrentResult().failureCount).toBe(1);
    expect(mock.requests).toHaveLength(2); // the first attempt and the client's one retry
    stop();
  });
});

describe("cancellation", () => {
  it("passes TanStack's signal to the request: cancelQueries aborts it", async () => {
    const hub = client();
    let seen: Request | undefined;
    server.use(
      http.get(`${mock.baseUrl}/hub/alpha`, async ({ request }) => {
        seen = request;
        await delay("infinite");
      }),
    );
    const qc = queryClient();
    const options = hubQueries(hub).hub();
    const queryFn = vi.fn(options.queryFn);
    const pending = qc.fetchQuery({ ...options, queryFn });
    await vi.waitFor(() => expect(seen).toBeInstanceOf(Request));
    await qc.cancelQueries({ queryKey: hubKeys.hub(hub) });

    const error = await pending.catch((caught: unknown) => caught);
    expect(isCancelledError(error)).toBe(true);
    expect(queryFn.mock.calls[0]?.[0].signal.aborted).toBe(true);
    await vi.waitFor(() => expect(seen?.signal.aborted).toBe(true));
  });

  it("throws HubAbortError from queryFn when the signal is aborted, without retrying", async () => {
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, () => delay("infinite")));
    const controller = new AbortController();
    const running = hubQueries(client()).hub().queryFn({ signal: controller.signal });
    await delay(20);
    controller.abort();
    await expect(running).rejects.toBeInstanceOf(HubAbortError);
  });
});

describe("every query passes TanStack's signal to its request", () => {
  const reads: ReadonlyArray<readonly [string, AnyRead]> = [
    ["discover", () => hubQueries(client()).discover()],
    ["hub", () => hubQueries(client()).hub()],
    ["leaderboard", () => hubQueries(client()).leaderboard({ limit: 3 })],
    ["holder", () => hubQueries(client()).holder(WALLET)],
    ["stakeStatus", () => hubQueries(client()).stakeStatus(WALLET)],
  ];

  it.each(reads)("%s: an aborted signal fails its queryFn with HubAbortError and sends nothing", async (_name, options) => {
    const controller = new AbortController();
    const reason = new Error("unmounted");
    controller.abort(reason);
    const error = await options()
      .queryFn({ signal: controller.signal })
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    expect(error).toBeInstanceOf(HubAbortError);
    expect((error as HubAbortError).cause).toBe(reason);
    expect(mock.requests).toHaveLength(0);
  });

  it.each(reads)("%s: the same queryFn with a live signal reads the hub", async (_name, options) => {
    await expect(options().queryFn({ signal: new AbortController().signal })).resolves.toBeTypeOf("object");
    expect(mock.requests).toHaveLength(1);
  });
});

describe("every query leaves retrying to the client", () => {
  // A 400 the first time, the real answer after: a TanStack retry would turn the failure into data.
  const failOnce = (path: string) => {
    let refused = 0;
    server.use(
      http.get(
        `${mock.baseUrl}${path}`,
        () => {
          refused++;
          return HttpResponse.json({ error: { code: "bad_request", message: "not now" } }, { status: 400 });
        },
        { once: true },
      ),
    );
    return () => refused;
  };

  const reads: ReadonlyArray<readonly [string, string, AnyRead]> = [
    ["discover", "", () => hubQueries(client()).discover()],
    ["hub", "/hub/alpha", () => hubQueries(client()).hub()],
    ["leaderboard", "/hub/alpha/leaderboard", () => hubQueries(client()).leaderboard()],
    ["holder", `/hub/alpha/holder/${WALLET}`, () => hubQueries(client()).holder(WALLET)],
    ["stakeStatus", "/hub/alpha/stake-status", () => hubQueries(client()).stakeStatus(WALLET)],
  ];

  it.each(reads)("%s: retry is false, so one refusal fails the query even when TanStack would retry at once", async (_name, path, options) => {
    const refused = failOnce(path);
    const built = options();
    expect(built.retry).toBe(false);
    await expect(queryClient().fetchQuery({ ...built, retryDelay: 0 })).rejects.toBeInstanceOf(BadRequestError);
    expect(refused()).toBe(1);
    expect(mock.requests).toHaveLength(0); // the refusal came from the override, and nothing was asked again
  });
});
