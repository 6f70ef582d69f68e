// What a hub asks a call to wait is waited in the hub's time, and never beyond the call's own
// limits: a longer wait fails at once, with the wait on the error. Under fake timers, to the
// millisecond. (The property suite states the same rules for any header and any clock offset.)
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineTelemetry, HubAbortError, HubClient, RateLimitError, ServerError, type HubClientOptions, type HubTelemetry } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { client as fetchClient, run, scripted as scriptedFetch } from "../../helpers/scripted-fetch";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const NOW = 1_800_000_000_000;
type Answer = { status?: number; headers?: Record<string, string> | ((serverNow: number) => Record<string, string>) };

/** A server client (it keeps the server's time) whose fetch answers `answers` in turn (the last repeats) from a server whose clock is `offset` ms from this machine's. */
function scripted(answers: Answer[], offset = 0, options: Partial<HubClientOptions> = {}) {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: NOW });
  vi.spyOn(Math, "random").mockReturnValue(0);
  const times: number[] = [];
  const fetch = async () => {
    const { status = 200, headers = {} } = answers[Math.min(times.length, answers.length - 1)]!;
    times.push(Date.now() - NOW);
    const serverNow = Date.now() + offset;
    const given = typeof headers === "function" ? headers(serverNow) : headers;
    return Response.json({ slug: "alpha" }, { status, headers: { date: new Date(serverNow).toUTCString(), ...given } });
  };
  const client = new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: fetch as typeof globalThis.fetch, ...options });
  return { client, times };
}

const rejection = (result: PromiseSettledResult<unknown> | undefined) => (result as PromiseRejectedResult).reason as Error & Record<string, unknown>;

describe("no wait beyond the call's own limits", () => {
  it("nothing left until a reset an hour away: the next call fails at once with the wait on its RateLimitError, nothing sent", async () => {
    const reset = String(NOW / 1000 + 3_600);
    const { client, times } = scripted([{ headers: { "x-ratelimit-limit": "5000", "x-ratelimit-remaining": "0", "x-ratelimit-reset": reset } }]);
    await run([() => client.getHub()]);
    const [next] = await run([() => client.getHub()]);
    expect(rejection(next)).toBeInstanceOf(RateLimitError);
    expect(rejection(next)).toMatchObject({ retryAfterMs: 3_600_000, attempts: 0, mayHaveBeenApplied: false });
    expect(rejection(next).message).toBe("Not sent: the hub allows the next request in 3600 s, more than this call may wait (60 s).");
    expect(times).toEqual([0]);
  });

  it("one call's 503 Retry-After: 30 does not hold a later call that allows no retry and 1 s per attempt", async () => {
    const { client, times } = scripted([{ status: 503, headers: { "retry-after": "30" } }, {}]);
    const first = client.getHub().catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    const [later] = await run([() => client.getHub({ retry: 0, timeout: 1_000 })]);
    expect(rejection(later)).toMatchObject({ name: "RateLimitError", retryAfterMs: 29_990 });
    expect(rejection(later).message).toContain("more than this call may wait (1 s)");
    // The first call waits the 30 s it may, and gets its answer.
    await run([() => first]);
    expect(times).toEqual([0, 30_000]);
  });
});

describe("waits in the server's time", () => {
  it.each([
    ["10 s behind", -10_000],
    ["90 s ahead", 90_000],
  ])("a 429 whose Retry-After is an HTTP date, the server's clock %s: the retry comes when the server meant", async (_name, offset) => {
    const { client, times } = scripted([{ status: 429, headers: (serverNow) => ({ "retry-after": new Date(serverNow + 2_000).toUTCString() }) }, {}], offset);
    const [result] = await run([() => client.getHub()]);
    expect(result!.status).toBe("fulfilled");
    expect(times).toEqual([0, 2_000]);
  });

  it.each([
    ["epoch seconds", (at: number) => String(at / 1000)],
    ["epoch milliseconds", (at: number) => String(at)],
  ])("a 429 whose X-RateLimit-Reset is in %s, the server 10 s behind: the retry comes at the reset", async (_name, format) => {
    const { client, times } = scripted([{ status: 429, headers: (serverNow) => ({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": format(serverNow + 3_000) }) }, {}], -10_000);
    await run([() => client.getHub()]);
    expect(times).toEqual([0, 3_000]);
  });

  it("a RateLimitError carries the wait whichever header gave it: an epoch reset too", async () => {
    const { client } = scripted([{ status: 429, headers: (serverNow) => ({ "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(serverNow / 1000 + 120) }) }]);
    const [result] = await run([() => client.getHub()]);
    expect(rejection(result)).toMatchObject({ name: "RateLimitError", retryAfterMs: 120_000, attempts: 1 });
  });
});

describe("an abort and the attempts", () => {
  it("a fetch deaf to its signal, with no timeout: an abort settles the call at once", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: NOW });
    const deaf = (() => new Promise<Response>(() => undefined)) as typeof globalThis.fetch;
    const client = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", fetch: deaf, timeout: false });
    const controller = new AbortController();
    const call = client.getHub({ signal: controller.signal }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5);
    controller.abort(new Error("user left"));
    await vi.advanceTimersByTimeAsync(0);
    await expect(call).resolves.toBeInstanceOf(HubAbortError);
  });

  it("a followed redirect counts both requests, in withResponse() and in the telemetry", async () => {
    const fetch = (async (url: string) =>
      url.endsWith("/hub/alpha") ? new Response(null, { status: 307, headers: { location: "https://h.test/api/v1/hub/alpha-2" } }) : Response.json({ slug: "alpha" })) as unknown as typeof globalThis.fetch;
    const ended: number[] = [];
    const telemetry: HubTelemetry = defineTelemetry({ name: "count", startCall: () => ({ run: (call) => call(), end: (context) => void ended.push(context.attempts) }) });
    const client = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", fetch, telemetry });
    const { attempts } = await client.getHub().withResponse();
    expect(attempts).toBe(2);
    expect(ended).toEqual([2]);
  });
});

describe("the waits between attempts", () => {
  // Attempts through a scripted fetch (test/helpers/scripted-fetch.ts), one at a time.
  const scripted = scriptedFetch;
  const client = fetchClient;

  it("after a 429 the wait is the server's, not the backoff's", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "1" } }, {}]);
    await run([() => client(script.fetch, { retry: { backoff: 10_000, maxBackoff: 10_000 } }).getHub()]);
    expect(script.times).toEqual([0, 1_000]);
  });

  it("the backoff counts failures, not throttles: a 500 after a 429 waits the first step", async () => {
    const script = scripted([{ status: 429, headers: { "retry-after": "1" } }, { status: 500 }, {}]);
    await run([() => client(script.fetch).getHub()]);
    // 300 ms × (0.5 + 0 / 2) after the 500 at 1,000 ms.
    expect(script.times).toEqual([0, 1_000, 1_150]);
  });

  it("a final failure after retries names them once", async () => {
    const script = scripted([{ status: 503 }]);
    const [result] = await run([() => client(script.fetch, { retry: 1 }).getHub()]);
    expect(result).toMatchObject({ status: "rejected", reason: expect.any(ServerError) });
    expect((result as PromiseRejectedResult).reason.message).toBe("503: status 503 2 attempts, 150 ms in all.");
  });
});
