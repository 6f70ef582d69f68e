// @ts-nocheck
// What `withResponse()` says about a call's attempts, and what a final failure's message says
// about them: how many were sent and how long the call took.
import { describe, expect, it } from "vitest";
import { HubConnectionError, HubTimeoutError, ServerError } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, client } = useHubMock();
const WALLET = "0x1111111111111111111111111111111111111111";
const award = (ref: string) => ({ wallet: WALLET, amount: 5, ref });

describe("withResponse(): attempts and mayHaveBeenAppliedEarlier", () => {
  it("a read answered at once: 1 attempt, and no write verdict", async () => {
    const result = await client().getHub().withResponse();
    expect(result.attempts).toBe(1);
    expect(result).not.toHaveProperty("mayHaveBeenAppliedEarlier");
  });

  it("a read retried after two 503s: 3 attempts", async () => {
    mock.failNext(2);
    expect((await client().getHub().withResponse()).attempts).toBe(3);
  });

  it("a first award answered at once: 1 attempt, nothing applied earlier, not a duplicate", async () => {
    const { data, attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl).awardPoints(award("q-1")).withResponse();
    expect({ duplicate: data.duplicate, attempts, mayHaveBeenAppliedEarlier }).toEqual({ duplicate: false, attempts: 1, mayHaveBeenAppliedEarlier: false });
  });

  for (const how of ["network-error", 503] as const) {
    it(`a first award whose first answer was lost (${how}): the retry reads "duplicate", and the SDK says it may be this call's own`, async () => {
      mock.loseNextWrites(1, how);
      const { data, attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl).awardPoints(award("q-2")).withResponse();
      expect(mock.ledger).toHaveLength(1);
      expect({ duplicate: data.duplicate, attempts, mayHaveBeenAppliedEarlier }).toEqual({ duplicate: true, attempts: 2, mayHaveBeenAppliedEarlier: true });
    });
  }

  it("an award already claimed by an earlier call: duplicate, and nothing of this call applied earlier", async () => {
    const server = serverClient(mock.baseUrl);
    await server.awardPoints(award("q-3"));
    const { data, mayHaveBeenAppliedEarlier } = await server.awardPoints(award("q-3")).withResponse();
    expect({ duplicate: data.duplicate, mayHaveBeenAppliedEarlier }).toEqual({ duplicate: true, mayHaveBeenAppliedEarlier: false });
  });

  it("an award whose first attempt was cut by the timeout (a fetch deaf to the abort): may have been applied earlier", async () => {
    let calls = 0;
    const fetch: typeof globalThis.fetch = (input, init) => (++calls === 1 ? new Promise<Response>(() => undefined) : globalThis.fetch(input, init));
    const { attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl, { fetch, timeout: 30 }).awardPoints(award("q-6")).withResponse();
    expect({ attempts, mayHaveBeenAppliedEarlier }).toEqual({ attempts: 2, mayHaveBeenAppliedEarlier: true });
  });

  it("an award whose first answer (a 400) arrived but whose body then stalled past the timeout: retried, and its status, not the cut, says it was not applied", async () => {
    let calls = 0;
    const stalled = () => new Response(new ReadableStream({ start: (controller) => controller.enqueue(new TextEncoder().encode("{")) }), { status: 400 });
    const fetch: typeof globalThis.fetch = (input, init) => (++calls === 1 ? Promise.resolve(stalled()) : globalThis.fetch(input, init));
    const { data, attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl, { fetch, timeout: 30 }).awardPoints(award("q-7")).withResponse();
    expect({ duplicate: data.duplicate, attempts, mayHaveBeenAppliedEarlier }).toEqual({ duplicate: false, attempts: 2, mayHaveBeenAppliedEarlier: false });
  });

  it("an award throttled first (429): refused, so not applied earlier", async () => {
    mock.rateLimitNext(1, 0);
    const { attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl).awardPoints(award("q-4")).withResponse();
    expect({ attempts, mayHaveBeenAppliedEarlier }).toEqual({ attempts: 2, mayHaveBeenAppliedEarlier: false });
  });

  it("an award re-sent for the clock counts the refused attempt too", async () => {
    mock.setClockOffset(3_600_000);
    const { attempts, mayHaveBeenAppliedEarlier } = await serverClient(mock.baseUrl).awardPoints(award("q-5")).withResponse();
    expect({ attempts, mayHaveBeenAppliedEarlier }).toEqual({ attempts: 2, mayHaveBeenAppliedEarlier: false });
  });

  it("campaigns count an award whose first answer was lost as applied", async () => {
    mock.loseNextWrites(1);
    const summary = await serverClient(mock.baseUrl).awardMany([award("c-1"), award("c-2")], { concurrency: 1 });
    expect(summary).toMatchObject({ applied: 2, skipped: 0, failed: [] });
    expect(mock.ledger).toHaveLength(2);
  });
});

describe("a final failure says how many attempts and how long", () => {
  it("timeouts: the attempts, each cut at the timeout, and the total", async () => {
    const deaf = (() => new Promise<Response>(() => undefined)) as typeof globalThis.fetch;
    const error = await client({ fetch: deaf, timeout: 30, retry: { limit: 2, backoff: 1 } }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect((error as HubTimeoutError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/^Request to https:\/\/hub\.example\.com timed out after 30 ms\. 3 attempts, each cut at 30 ms, \d+(\.\d)? (ms|s) in all\.$/);
  });

  it("a single timed-out attempt", async () => {
    const deaf = (() => new Promise<Response>(() => undefined)) as typeof globalThis.fetch;
    const error = await client({ fetch: deaf, timeout: 30, retry: 0 }).getHub().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ 1 attempt, cut at 30 ms, \d+(\.\d)? (ms|s) in all\.$/);
  });

  it("a mix of 503s and a timeout names how many were cut", async () => {
    let calls = 0;
    const fetch = (() => (++calls < 3 ? Promise.resolve(new Response("down", { status: 503 })) : new Promise<Response>(() => undefined))) as typeof globalThis.fetch;
    const error = await client({ fetch, timeout: 30, retry: { limit: 2, backoff: 1 } }).getHub().catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/ 3 attempts, 1 cut at 30 ms, /);
  });

  it("connection failures", async () => {
    const refused = (() => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }))) as typeof globalThis.fetch;
    const error = await client({ fetch: refused, retry: { limit: 2, backoff: 1 } }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect((error as Error).message).toMatch(/: ECONNREFUSED\. 3 attempts, \d+(\.\d)? (ms|s) in all\.$/);
  });

  it("statuses retried to the end (the 429s beyond the limit counted)", async () => {
    mock.failNext(3);
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).attempts).toBe(3);
    expect((error as Error).message).toMatch(/ 3 attempts, \d+(\.\d)? (ms|s) in all\.$/);
    mock.rateLimitNext(20, 0);
    const throttled = await client().getHub().catch((e: unknown) => e);
    expect((throttled as Error).message).toMatch(/ 9 attempts, /);
  });

  it("a refusal answered at once names no attempts", async () => {
    const error = await client({ hub: "nope" }).getHub().catch((e: unknown) => e);
    expect((error as Error).message).not.toMatch(/attempt/);
    expect((error as { attempts?: number }).attempts).toBe(1);
  });
});

describe("a signal bounds a whole call, waits included (README: Retries)", () => {
  it("an abort during a Retry-After wait ends the call at once", async () => {
    mock.rateLimitNext(1, 30);
    const controller = new AbortController();
    const hub = client({ onRequest: (event) => event.type === "response" && event.status === 429 && controller.abort(new Error("enough")) });
    const error = await hub.getHub({ signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubAbortError" });
    expect(mock.requests).toHaveLength(1);
  });
});
