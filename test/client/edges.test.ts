// The edges of the browser client that the main suites leave open: what a telemetry hears of each
// read (and what it may leave out), the exact request of a read without its optional query, the
// warn-once log of a schema mismatch, leaderboardRows on the shapes it refuses, and the messages of
// the input checks.
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import {
  HubClient,
  HubConnectionError,
  HubResponseError,
  HubValidationError,
  NotFoundError,
  leaderboardRows,
  type HubCallContext,
  type HubCallObserver,
  type HubClientOptions,
  type HubTelemetry,
} from "public-hub-sdk";
import type { AwardInput } from "public-hub-sdk/server";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";

/** A logger that keeps every line it is given. */
function capture() {
  const lines: string[] = [];
  const keep = (line: string) => void lines.push(line);
  return { lines, logger: { error: keep, warn: keep, info: keep, debug: keep } };
}

/** A telemetry whose every call gets `observer` (or none), recording the contexts it starts and ends with. */
function telemetryOf(observer: (ended: HubCallContext[]) => HubCallObserver | undefined) {
  const started: HubCallContext[] = [];
  const ended: HubCallContext[] = [];
  const telemetry: HubTelemetry = {
    name: "test",
    startCall: (call) => {
      started.push({ ...call });
      return observer(ended);
    },
  };
  return { telemetry, started, ended };
}

/** The two methods an observer must have: runs the call, keeps a copy of the context it ends with. */
const minimal = (ended: HubCallContext[]): HubCallObserver => ({ run: (call) => call(), end: (call) => void ended.push({ ...call }) });

/** The issues of a `HubValidationError` thrown (or rejected with) by `action`. */
async function issuesOf(action: () => unknown) {
  const error = await (async () => action())().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HubValidationError);
  return { message: (error as HubValidationError).message, issues: (error as HubValidationError).issues };
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

describe("what a telemetry hears of each read", () => {
  it("names the operation, its path template and the path sent, the discovery's being empty", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    const hub = client({ telemetry });
    await hub.discover();
    await hub.getHub();
    await hub.getLeaderboard({ limit: 2 });
    await hub.getHolder(WALLET);
    await hub.getStakeStatus(WALLET);
    const base = { method: "GET", hub: "alpha", baseUrl: hub.baseUrl, attempts: 1, status: 200 };
    expect(ended).toEqual([
      { ...base, operation: "discover", urlTemplate: "", path: "" },
      { ...base, operation: "getHub", urlTemplate: "/hub/{slug}", path: "/hub/alpha" },
      { ...base, operation: "getLeaderboard", urlTemplate: "/hub/{slug}/leaderboard", path: "/hub/alpha/leaderboard" },
      { ...base, operation: "getHolder", urlTemplate: "/hub/{slug}/holder/{wallet}", path: `/hub/alpha/holder/${WALLET}`, wallet: WALLET },
      { ...base, operation: "getStakeStatus", urlTemplate: "/hub/{slug}/stake-status", path: "/hub/alpha/stake-status", wallet: WALLET },
    ]);
    // Exactly "" for discovery, not "/": the base address itself.
    expect(ended[0]!.path).toBe("");
    expect(ended[0]!.urlTemplate).toBe("");
  });

  it("a failed read sets the error, and never mayHaveBeenApplied (that is a write's)", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    const error = await failure(client({ telemetry, hub: "nope" }).getHub());
    expect(error).toBeInstanceOf(NotFoundError);
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ operation: "getHub", status: 404, error });
    expect(ended[0]).not.toHaveProperty("mayHaveBeenApplied");
  });

  it("a failed write whose error does not say sets mayHaveBeenApplied to false", async () => {
    const { telemetry, ended } = telemetryOf(minimal);
    function* input(): Generator<AwardInput> {
      throw new Error("bad file");
    }
    const error = await failure(serverClient(mock.baseUrl, { telemetry }).awardMany(input()));
    expect(error).toMatchObject({ message: "bad file" });
    expect(ended).toHaveLength(1);
    expect(ended[0]).toMatchObject({ operation: "awardMany", method: "POST", error, mayHaveBeenApplied: false });
  });

  // Each observer method but run and end is optional, and a telemetry may leave a call unobserved:
  // what it leaves out is skipped, never a failure (which would be logged as observer-failed).
  const partial: Array<[string, (ended: HubCallContext[]) => HubCallObserver | undefined]> = [
    ["no observer at all (startCall gives undefined)", () => undefined],
    ["an observer with only run and end", minimal],
    ["an observer whose attempt hears nothing back", (ended) => ({ ...minimal(ended), attempt: () => undefined })],
  ];

  it.each(partial)("%s: a retried read logs no observer failure", async (_name, observer) => {
    const { lines, logger } = capture();
    const { telemetry, started, ended } = telemetryOf(observer);
    mock.failNext(1);
    await expect(client({ telemetry, logger, logLevel: "warn" }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(2);
    expect(started).toHaveLength(1);
    expect(lines).toEqual([]);
    // The status is recorded even when the observer does not listen to the attempts.
    if (ended.length > 0) expect(ended[0]).toMatchObject({ attempts: 2, status: 200 });
  });

  it("an observer with every method hears each attempt, its status and the retry", async () => {
    const heard: unknown[] = [];
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      attempt: (request, attempt) => {
        heard.push(["attempt", new URL(request.url).pathname, attempt]);
        return (status) => void heard.push(["status", status]);
      },
      retry: (reason) => void heard.push(["retry", reason]),
    }));
    mock.failNext(1);
    await client({ telemetry }).getHub();
    expect(heard).toEqual([["attempt", "/api/v1/hub/alpha", 1], ["status", 503], ["retry", "503"], ["attempt", "/api/v1/hub/alpha", 2], ["status", 200]]);
    expect(ended[0]).toMatchObject({ attempts: 2, status: 200 });
  });

  it("an observer's run that throws before running the call: the call runs anyway, once", async () => {
    const { lines, logger } = capture();
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      run: () => {
        throw new Error("no context");
      },
    }));
    await expect(client({ telemetry, logger, logLevel: "warn" }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(1);
    expect(ended).toHaveLength(1);
    expect(lines).toEqual(['[public-hub] observer-failed error="no context"']);
  });

  it("an observer's run that throws after starting the call: the call is not sent again", async () => {
    const runs: Array<Promise<unknown>> = [];
    const { telemetry, ended } = telemetryOf((done) => ({
      ...minimal(done),
      run: (call) => {
        runs.push(call());
        throw new Error("after the start");
      },
    }));
    // The call ends as it would have: its data, not the observer's error (it used to be a TypeError).
    await expect(client({ telemetry }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    await expect(runs[0]).resolves.toMatchObject({ data: { slug: "alpha" } });
    expect(mock.requests).toHaveLength(1);
    expect(ended).toHaveLength(1);
  });

  describe("a pause for the server's pace", () => {
    // The answer says nothing is left for 50 ms: the next read waits it out before its first attempt.
    const paced = () => {
      const urls: string[] = [];
      const fetch = (async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ slug: "alpha" }), { headers: { "content-type": "application/json", ratelimit: '"default";r=0;t=0.05' } });
      }) as unknown as typeof globalThis.fetch;
      return { urls, fetch };
    };
    const options = (extra: Partial<HubClientOptions>): HubClientOptions => ({ baseUrl: "https://paced.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", logLevel: "warn", ...extra });

    it("is heard by an observer's pause, with the wait", async () => {
      vi.spyOn(Date, "now").mockReturnValue(1_750_000_000_000); // a still clock: the wait is exactly the reset
      const waits: number[] = [];
      const { telemetry } = telemetryOf((ended) => ({ ...minimal(ended), pause: (waitMs) => void waits.push(waitMs) }));
      const { urls, fetch } = paced();
      const hub = new HubClient(options({ telemetry, fetch }));
      await hub.getHub();
      expect(waits).toEqual([]);
      await hub.getHub();
      expect(waits).toEqual([50]);
      expect(urls).toEqual(["https://paced.example.com/api/v1/hub/alpha", "https://paced.example.com/api/v1/hub/alpha"]);
    });

    it.each(partial.slice(0, 2))("with %s, logs no observer failure", async (_name, observer) => {
      vi.spyOn(Date, "now").mockReturnValue(1_750_000_000_000);
      const { lines, logger } = capture();
      const { telemetry } = telemetryOf(observer);
      const { urls, fetch } = paced();
      const hub = new HubClient(options({ telemetry, fetch, logger }));
      await hub.getHub();
      await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
      expect(urls).toHaveLength(2);
      expect(lines).toEqual([]);
    });
  });

  describe("a campaign's progress", () => {
    const awards: AwardInput[] = [
      { wallet: "0xa1", amount: 1, ref: "edge-1" },
      { wallet: "0xa2", amount: 2, ref: "edge-2" },
    ];

    it("is heard by an observer's progress", async () => {
      const done: number[] = [];
      const { telemetry, ended } = telemetryOf((calls) => ({ ...minimal(calls), progress: (progress) => void done.push(progress.done!) }));
      const summary = await serverClient(mock.baseUrl, { telemetry }).awardMany(awards, { concurrency: 1 });
      expect(summary).toMatchObject({ total: 2, applied: 2 });
      expect(done).toEqual([1, 2]);
      expect(ended.map((call) => call.operation).sort()).toEqual(["awardMany", "awardPoints", "awardPoints"]);
    });

    it.each(partial.slice(0, 2))("with %s, logs no observer failure", async (_name, observer) => {
      const { lines, logger } = capture();
      const { telemetry } = telemetryOf(observer);
      const summary = await serverClient(mock.baseUrl, { telemetry, logger, logLevel: "warn" }).awardMany(awards, { concurrency: 1 });
      expect(summary).toMatchObject({ total: 2, applied: 2 });
      expect(lines).toEqual([]);
    });
  });
});

describe("a HubClient subclass that posts", () => {
  class Posting extends HubClient {
    note() {
      return this.request({ name: "note", method: "POST", segments: ["hub", this.hub, "notes"], body: "{}" }, undefined);
    }
  }
  // A refused connection, as undici reports it: nothing left this machine.
  const refused = async () => {
    throw Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:443"), { code: "ECONNREFUSED" }) });
  };

  it("counts every failure as possibly sent, a refused connection too (only the server client knows the never-sent ones)", async () => {
    const error = await failure(new Posting({ baseUrl: "https://h.example.com/api/v1", clientId: "pk", hub: "alpha", retry: 0, logLevel: "off", fetch: refused }).note());
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", mayHaveBeenApplied: true });
    const award = await failure(serverClient("https://h.example.com/api/v1", { retry: 0, fetch: refused }).awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }));
    expect(award).toBeInstanceOf(HubConnectionError);
    expect(award).toMatchObject({ code: "ECONNREFUSED", mayHaveBeenApplied: false });
  });
});

describe("requests and logs of the reads", () => {
  it("a leaderboard read without a limit sends its URL with no query at all (not even a bare ?)", async () => {
    const urls: string[] = [];
    await client({ onRequest: (event) => void (event.type === "request" && urls.push(event.url)) }).getLeaderboard();
    await client().getLeaderboard({});
    expect(urls).toEqual([`${mock.baseUrl}/hub/alpha/leaderboard`]);
    expect(mock.requests.map((request) => request.url)).toEqual([`${mock.baseUrl}/hub/alpha/leaderboard`, `${mock.baseUrl}/hub/alpha/leaderboard`]);
  });

  it('validate "warn": a field path is logged once per client, however often it mismatches', async () => {
    const { lines, logger } = capture();
    const hub = client({ schemas: { hub: z.object({ name: z.number() }) }, validate: "warn", logLevel: "warn", logger });
    expect(await hub.getHub()).toMatchObject({ name: "Alpha Hub" });
    expect(await hub.getHub()).toMatchObject({ name: "Alpha Hub" });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[public-hub\] schema-mismatch operation=hub path=name /);
    // Another client logs it again.
    await client({ schemas: { hub: z.object({ name: z.number() }) }, validate: "warn", logLevel: "warn", logger }).getHub();
    expect(lines).toHaveLength(2);
  });
});

describe("leaderboardRows", () => {
  const rows = [{ rank: 1, wallet: "0xa" }];
  const refusal = (board: object) => {
    try {
      leaderboardRows(board);
    } catch (error) {
      expect(error).toBeInstanceOf(HubResponseError);
      return error as HubResponseError;
    }
    throw new Error("leaderboardRows accepted the board");
  };

  it("reads rows one envelope deep, whichever row key comes first", () => {
    expect(leaderboardRows({ data: { rows } })).toBe(rows);
    expect(leaderboardRows({ meta: { page: 1 }, results: { items: rows } })).toBe(rows);
  });

  it("prefers rows at the top to rows in an envelope", () => {
    const top = [{ rank: 9, wallet: "0xtop" }];
    expect(leaderboardRows({ entries: { rows }, stakers: top })).toBe(top);
  });

  it("does not look two envelopes deep", () => {
    const error = refusal({ data: { data: { rows } } });
    expect(error.message).toBe(
      'Unusable 200 response (unexpected-shape): no leaderboard rows found in an object with keys "data": expected an array, or one under entries, rows, leaderboard, items, data, results, stakers (also one envelope deep); declare the envelope with the client\'s `unwrap` option',
    );
  });

  it("names an object without keys as such", () => {
    const error = refusal({});
    expect(error).toMatchObject({ status: 200, problem: "unexpected-shape", body: {}, bodyExcerpt: "{}" });
    expect(error.message).toContain("no leaderboard rows found in an object with keys (none): expected an array");
  });

  it("keeps the JSON of the board it refuses", () => {
    expect(refusal({ total: 3 })).toMatchObject({ bodyExcerpt: '{"total":3}', body: { total: 3 } });
  });

  it("a board that is not JSON (a cycle) is still refused with a HubResponseError", () => {
    const board: Record<string, unknown> = { name: "loop" };
    board.self = board;
    const error = refusal(board);
    expect(error.bodyExcerpt).toBe("[object Object]");
    expect(error.message).toContain('an object with keys "name", "self"');
  });
});

describe("input checks: every issue exact", () => {
  it("a wallet with a lone surrogate", async () => {
    const { issues } = await issuesOf(() => client().getHolder("0x\ud800abc"));
    expect(issues).toEqual([{ path: ["wallet"], code: "custom", message: "wallet must not hold a lone surrogate" }]);
    expect(mock.requests).toHaveLength(0);
  });

  it("a limit beyond the exact integers", async () => {
    const { message, issues } = await issuesOf(() => client().getLeaderboard({ limit: 2 ** 53 }));
    expect(issues).toEqual([{ path: ["limit"], code: "too_big", message: "limit must be at most 9007199254740991" }]);
    expect(message).toBe("Invalid leaderboard query: limit: limit must be at most 9007199254740991");
  });

  it("an unknown name in a leaderboard query names the query", async () => {
    const { message } = await issuesOf(() => client().getLeaderboard({ limit: 1, top: 3 } as never));
    expect(message).toBe('Invalid leaderboard query: top: unknown option "top"');
  });

  it("an unknown call option names the call options", async () => {
    const { message } = await issuesOf(() => client().getHub({ timout: 5 } as never));
    expect(message).toBe('Invalid call options: timout: unknown option "timout" (did you mean "timeout"?)');
  });

  it("a null schema for a call is refused as not a schema", async () => {
    const { issues } = await issuesOf(() => client().getHub({ schema: null } as never));
    expect(issues).toEqual([{ path: ["schema"], code: "invalid_type", message: "schema must be a Standard Schema (zod, valibot…: with ~standard.validate)" }]);
  });

  const construct = (extra: Record<string, unknown>) => () => new HubClient({ baseUrl: "https://h.example.com/api/v1", clientId: "pk", hub: "alpha", ...extra } as never);

  it.each([
    ["a negative backoff", { retry: { backoff: -1 } }, ["retry", "backoff"], "retry.backoff must be a finite number ≥ 0"],
    ["a backoff as a string", { retry: { maxBackoff: "5" } }, ["retry", "maxBackoff"], "retry.maxBackoff must be a finite number ≥ 0"],
    ["an unwrap key that is a number", { unwrap: 5 }, ["unwrap"], "unwrap must be a non-empty string: the envelope's key of the payload"],
    ["one bad header among good ones", { headers: { "x-good": "1", "x bad": "2" } }, ["headers"], "headers must be an object of valid header names and string values without line breaks"],
    ["a header value that is a number", { headers: { "x-count": 5 } }, ["headers"], "headers must be an object of valid header names and string values without line breaks"],
  ])("refuses %s", async (_name, extra, path, message) => {
    const { issues } = await issuesOf(construct(extra));
    expect(issues).toEqual([{ path, code: "invalid_type", message }]);
  });

  it("suggests the first of the known names that share the longest beginning", async () => {
    const { issues } = await issuesOf(construct({ logs: "debug" }));
    expect(issues).toEqual([{ path: ["logs"], code: "unrecognized_keys", message: 'unknown option "logs" (did you mean "logLevel"?)' }]);
  });

  it("suggests nothing for a name sharing less than two letters with every known one", async () => {
    const { issues } = await issuesOf(construct({ strict: true }));
    expect(issues).toEqual([{ path: ["strict"], code: "unrecognized_keys", message: 'unknown option "strict"' }]);
  });
});
