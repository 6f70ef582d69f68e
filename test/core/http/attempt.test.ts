import { getEventListeners } from "node:events";
import { delay, http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient } from "public-hub-sdk";
import { AttemptTimeoutError, withTimeout } from "../../../src/core/http/attempt";
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

/** Log lines, kept. */
function capture() {
  const lines: Array<[string, string]> = [];
  const keep = (level: string) => (line: string) => void lines.push([level, line]);
  return { lines, logger: { debug: keep("debug"), info: keep("info"), warn: keep("warn"), error: keep("error") } };
}

describe("attempt timeouts", () => {
  afterEach(() => vi.useRealTimers());
  const never = (_url: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));

  it("an attempt cut by its timeout is logged with the timeout", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const { lines, logger } = capture();
    const hub = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, timeout: 40, logLevel: "debug", logger, fetch: never });
    const pending = hub.getHub().catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    expect((await pending) as Error).toMatchObject({ name: "HubTimeoutError" });
    expect(lines.find(([, line]) => line.startsWith("[public-hub] attempt "))?.[1]).toContain('error="attempt timed out after 40 ms"');
  });

  it("timeout: false sets no timer: a slow answer is waited for", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const slow = () => new Promise<Response>((resolve) => setTimeout(() => resolve(Response.json({ slug: "alpha" })), 600_000));
    const hub = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, timeout: false, logLevel: "off", fetch: slow });
    const pending = hub.getHub();
    await vi.advanceTimersByTimeAsync(600_000);
    await expect(pending).resolves.toEqual({ slug: "alpha" });
  });
});

describe("what a failed write attempt tells", () => {
  const refused = () => Promise.reject(Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } }));
  class Writer extends HubClient {
    /** A write of a subclass that says nothing about delivery: every failure may have been sent. */
    post(mayHaveBeenSent?: (error: unknown) => boolean) {
      return this.request({ method: "POST", segments: ["hub", this.hub, "things"], body: "{}", ...(mayHaveBeenSent ? { mayHaveBeenSent } : {}) });
    }
  }
  const writer = () => new Writer({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, logLevel: "off", fetch: refused });

  it("by default, a failed write may have been applied", async () => {
    await expect(writer().post()).rejects.toMatchObject({ name: "HubConnectionError", code: "ECONNREFUSED", mayHaveBeenApplied: true });
  });

  it("a write that knows its failure happened before sending was not applied", async () => {
    await expect(writer().post(() => false)).rejects.toMatchObject({ name: "HubConnectionError", mayHaveBeenApplied: false });
    await expect(writer().post(() => true)).rejects.toMatchObject({ name: "HubConnectionError", mayHaveBeenApplied: true });
  });
});

describe("withTimeout", () => {
  afterEach(() => vi.useRealTimers());

  it("an already aborted parent aborts the attempt at once, with its reason", () => {
    const parent = new AbortController();
    parent.abort("early");
    const limit = withTimeout(parent.signal, 1_000);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.signal.reason).toBe("early");
    limit.dispose();
  });

  it("follows the parent while in use, and no longer once disposed", () => {
    const parent = new AbortController();
    const limit = withTimeout(parent.signal, false);
    expect(limit.signal.aborted).toBe(false);
    parent.abort("later");
    expect(limit.signal.reason).toBe("later");
    const other = new AbortController();
    const disposed = withTimeout(other.signal, false);
    disposed.dispose();
    other.abort("too late");
    expect(disposed.signal.aborted).toBe(false);
  });

  it("times out with an AttemptTimeoutError after exactly `timeout` ms, and not once disposed", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const limit = withTimeout(new AbortController().signal, 30);
    vi.advanceTimersByTime(29);
    expect(limit.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(limit.signal.reason).toBeInstanceOf(AttemptTimeoutError);
    expect((limit.signal.reason as Error).message).toBe("attempt timed out after 30 ms");
    const disposed = withTimeout(new AbortController().signal, 30);
    disposed.dispose();
    vi.advanceTimersByTime(100);
    expect(disposed.signal.aborted).toBe(false);
  });

  it("timeout false sets no timer: the attempt waits as long as it takes", () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const limit = withTimeout(undefined, false);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(60_000);
    expect(limit.signal.aborted).toBe(false);
    limit.dispose();
  });
});
