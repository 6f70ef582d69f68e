import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import {
  BadRequestError,
  ForbiddenError,
  HubClient,
  HubConnectionError,
  HubResponseError,
  HubValidationError,
  NotFoundError,
  UnauthorizedError,
  leaderboardRows,
} from "public-hub-sdk";
import { failure } from "../helpers/caught";
import { capture } from "../helpers/log-lines";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, server, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";

describe("HubClient reads", () => {
  it("discover() calls the base address without x-api-key", async () => {
    const doc = await client().discover();
    expect(doc.version).toBe("v1");
    expect(mock.requests).toHaveLength(1);
    expect(new URL(mock.requests[0]!.url).pathname).toBe("/api/v1");
    expect(mock.requests[0]!.headers["x-api-key"]).toBeUndefined();
  });

  it("discover() drops an x-api-key given in the headers option", async () => {
    await client({ headers: { "x-api-key": "pk_alpha_demo", "x-trace": "t1" } }).discover();
    expect(mock.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(mock.requests[0]!.headers["x-trace"]).toBe("t1");
  });

  it("getHub() returns the configuration with every field kept", async () => {
    const hub = await client().getHub();
    expect(hub).toEqual({
      slug: "alpha",
      name: "Alpha Hub",
      description: "The demo hub of the public-hub-sdk mock.",
      token: { symbol: "ALP", decimals: 18 },
      theme: { accent: "#6b4eff" },
    });
    expect(mock.requests[0]!.headers["x-api-key"]).toBe("pk_alpha_demo");
    expect(mock.requests[0]!.headers.accept).toBe("application/json");
  });

  it("getLeaderboard() sends limit and returns the rows in rank order", async () => {
    const board = await client().getLeaderboard({ limit: 2 });
    expect(new URL(mock.requests[0]!.url).searchParams.get("limit")).toBe("2");
    expect(leaderboardRows(board).map((row) => row.rank)).toEqual([1, 2]);
    expect(board).toMatchObject({ hub: "alpha", limit: 2, total: 5 });
  });

  it("getLeaderboard() without a limit sends none", async () => {
    await client().getLeaderboard();
    expect(new URL(mock.requests[0]!.url).search).toBe("");
  });

  it("getHolder() and getStakeStatus() return the wallet's data", async () => {
    const holder = await client().getHolder(WALLET);
    expect(holder).toEqual({ hub: "alpha", wallet: WALLET, holder: true, tokens: 120, bits: 250 });
    const stake = await client().getStakeStatus(WALLET);
    expect(stake).toEqual({ hub: "alpha", wallet: WALLET, staking: true, staked: 52_000, rank: 1 });
    expect(new URL(mock.requests[1]!.url).searchParams.get("wallet")).toBe(WALLET);
  });

  it("keeps unknown fields and non-JSON-object values intact", async () => {
    const extra = { slug: "alpha", future: { nested: [1, { deep: true }] }, nothing: null, big: 12345678901234 };
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, () => HttpResponse.json(extra)));
    expect(await client().getHub()).toEqual(extra);
  });

  it("narrows the body with a user schema, and a mismatch is a typed error", async () => {
    const schema = z.object({ slug: z.string(), name: z.string() });
    const hub = await client().getHub({ schema });
    expect(hub.name).toBe("Alpha Hub");
    const wrong = z.object({ name: z.number() });
    const error = await client().getHub({ schema: wrong }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubResponseError);
    expect(error).toMatchObject({ status: 200, problem: "schema-mismatch" });
    expect((error as HubResponseError).issues[0]!.path).toEqual(["name"]);
  });
});

describe("listed statuses", () => {
  it("401 for an unknown key", async () => {
    const error = await client({ clientId: "pk_nope" }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: "invalid_api_key", message: expect.stringContaining("Unknown API key") });
  });

  it("403 for a key scoped to another hub, on every read", async () => {
    const other = client({ clientId: "pk_beta_demo" });
    for (const call of [() => other.getHub(), () => other.getLeaderboard(), () => other.getHolder(WALLET), () => other.getStakeStatus(WALLET)]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({ status: 403, code: "forbidden" });
    }
  });

  it("404 for an unknown hub, with the request id", async () => {
    const error = await client({ hub: "nope" }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toMatch(/^req_mock_/);
    expect((error as NotFoundError).body).toEqual({ error: { code: "hub_not_found", message: 'No hub "nope".' } });
  });

  it("a server's 400 to stake-status is a BadRequestError with the server's code", async () => {
    server.use(http.get(`${mock.baseUrl}/hub/alpha/stake-status`, () => HttpResponse.json({ code: "missing_wallet", message: "wallet?" }, { status: 400 })));
    const error = await client().getStakeStatus(WALLET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: "missing_wallet" });
  });

  it("the mock itself answers 400 to stake-status with no wallet", async () => {
    const response = await fetch(`${mock.baseUrl}/hub/alpha/stake-status`, { headers: { "x-api-key": "pk_alpha_demo" } });
    expect(response.status).toBe(400);
  });
});

describe("validation before sending", () => {
  const cases: Array<[string, (hub: HubClient) => Promise<unknown>]> = [
    ["limit 2.5", (hub) => hub.getLeaderboard({ limit: 2.5 })],
    ["limit 0", (hub) => hub.getLeaderboard({ limit: 0 })],
    ["limit -1", (hub) => hub.getLeaderboard({ limit: -1 })],
    ["limit NaN", (hub) => hub.getLeaderboard({ limit: Number.NaN })],
    ["limit Infinity", (hub) => hub.getLeaderboard({ limit: Number.POSITIVE_INFINITY })],
    ["limit as string", (hub) => hub.getLeaderboard({ limit: "10" as unknown as number })],
    ["empty holder wallet", (hub) => hub.getHolder("")],
    ["blank holder wallet", (hub) => hub.getHolder("   ")],
    ["dot-dot wallet", (hub) => hub.getHolder("..")],
    ["missing stake wallet", (hub) => hub.getStakeStatus(undefined as unknown as string)],
    ["numeric stake wallet", (hub) => hub.getStakeStatus(42 as unknown as string)],
  ];
  it.each(cases)("%s → HubValidationError, nothing sent", async (_name, call) => {
    const error = await call(client()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as HubValidationError).issues.length).toBeGreaterThan(0);
    expect(mock.requests).toHaveLength(0);
  });

  it("names the field in the message", async () => {
    await expect(client().getLeaderboard({ limit: 1.5 })).rejects.toThrow(/limit: limit must be a positive integer/);
  });
});

describe("constructor options", () => {
  const base = { baseUrl: "https://h.example.com/api/v1", clientId: "pk", hub: "alpha" };

  it.each([
    ["missing baseUrl", { ...base, baseUrl: undefined }],
    ["relative baseUrl", { ...base, baseUrl: "/api/v1" }],
    ["ftp baseUrl", { ...base, baseUrl: "ftp://h.example.com" }],
    ["baseUrl with query", { ...base, baseUrl: "https://h.example.com/api/v1?x=1" }],
    ["empty clientId", { ...base, clientId: "" }],
    ["empty hub", { ...base, hub: "" }],
    ["negative retry", { ...base, retry: -1 }],
    ["zero timeout", { ...base, timeout: 0 }],
    ["a clientId with a line break", { ...base, clientId: "pk_alpha\r\nx-evil: 1" }],
    ["a clientId with a trailing newline", { ...base, clientId: "pk_alpha\n" }],
    ["a clientId with a space", { ...base, clientId: "pk alpha" }],
    ["a clientId beyond ASCII", { ...base, clientId: "pk_älpha" }],
    ["a header value with a line break", { ...base, headers: { "user-agent": "bot\r\nx: 1" } }],
    ["an invalid header name", { ...base, headers: { "bad name": "v" } }],
    ["maxConcurrency 0", { ...base, maxConcurrency: 0 }],
    ["maxConcurrency 1.5", { ...base, maxConcurrency: 1.5 }],
    ["unwrap empty", { ...base, unwrap: "" }],
  ])("%s is a HubValidationError", (_name, options) => {
    expect(() => new HubClient(options as never)).toThrow(HubValidationError);
  });

  it("a header-unsafe clientId is refused without echoing it", () => {
    const error = (() => {
      try {
        return new HubClient({ ...base, clientId: "pk_SECRETISH\r\n" });
      } catch (e) {
        return e as HubValidationError;
      }
    })() as HubValidationError;
    expect(error.message).toBe(
      "Invalid client options: clientId: clientId must be printable ASCII without spaces or line breaks (a trailing newline from the environment?)",
    );
    expect(error.message).not.toContain("SECRETISH");
  });

  it.each([
    ["https://h.example.com", "https://h.example.com/api/v1"],
    ["https://h.example.com/", "https://h.example.com/api/v1"],
    ["https://h.example.com/api/v1/", "https://h.example.com/api/v1"],
    ["https://h.example.com/proxy/api/v1", "https://h.example.com/proxy/api/v1"],
  ])("baseUrl %s becomes %s", (baseUrl, expected) => {
    expect(new HubClient({ ...base, baseUrl }).baseUrl).toBe(expected);
  });
});

describe("onRequest hook", () => {
  it("hears each attempt and each response, without credentials", async () => {
    const events: unknown[] = [];
    mock.failNext(1);
    await client({ onRequest: (event) => events.push(event) }).getHub();
    expect(events).toEqual([
      { type: "request", method: "GET", url: `${mock.baseUrl}/hub/alpha`, attempt: 1 },
      expect.objectContaining({ type: "response", attempt: 1, status: 503 }),
      { type: "request", method: "GET", url: `${mock.baseUrl}/hub/alpha`, attempt: 2 },
      expect.objectContaining({ type: "response", attempt: 2, status: 200, requestId: expect.stringMatching(/^req_mock_/) }),
    ]);
    expect(JSON.stringify(events)).not.toContain("pk_alpha_demo");
  });

  it("a hook that throws never changes the outcome: the call gives its data, sent once, and the throw is logged", async () => {
    const boom = new Error("logger down");
    let calls = 0;
    const onRequest = () => {
      calls++;
      throw boom;
    };
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} };
    await expect(client({ onRequest, logger, logLevel: "warn" }).getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(calls).toBe(2); // before the attempt and after its answer
    expect(mock.requests).toHaveLength(1);
    expect(lines).toEqual(['[public-hub] observer-failed error="logger down"', '[public-hub] observer-failed error="logger down"']);
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
