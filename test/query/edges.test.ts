import { QueryClient } from "@tanstack/query-core";
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import { BadRequestError, HubAbortError, HubValidationError } from "public-hub-sdk";
import { hubKeys, hubQueries, type HubQueryContext } from "public-hub-sdk/query";
import { useHubMock } from "../helpers/mock-server";

const { mock, server, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";
/** Any one read's options, so that a table of them can be run through one test. */
type AnyRead = () => { queryKey: readonly unknown[]; queryFn: (context: HubQueryContext) => Promise<unknown>; retry: false };
const clients: QueryClient[] = [];
const queryClient = () => {
  const created = new QueryClient();
  clients.push(created);
  return created;
};
afterEach(() => {
  for (const created of clients.splice(0)) created.clear();
});

const refusal = (scope: unknown) => {
  try {
    hubKeys.all(scope as never);
  } catch (error) {
    return error;
  }
  throw new Error("hubKeys.all accepted the scope");
};

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
