import { afterEach, describe, expect, it, vi } from "vitest";
import { createHubMock } from "public-hub-sdk/mock";
import { ServerClock } from "../../src/core/request";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, server } = useHubMock();
const award = { wallet: "0xabc", amount: 1, ref: "clock-1" };
const posts = () => mock.requests.filter((r) => r.method === "POST");

afterEach(() => {
  vi.useRealTimers();
});

describe("ServerClock", () => {
  it("takes the middle of the Date's second", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.000Z") });
    const clock = new ServerClock();
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:10 GMT" }));
    expect(clock.offsetMs).toBe(10_500);
    expect(clock.timestamp()).toBe(String(Date.parse("2026-11-23T10:00:10.500Z") / 1000 - 0.5));
  });

  it.each([
    ["a cached copy (Age)", { date: "Mon, 23 Nov 2026 08:00:00 GMT", age: "7200" }],
    ["Age 0", { date: "Mon, 23 Nov 2026 08:00:00 GMT", age: "0" }],
    ["no Date", {}],
    ["an unreadable Date", { date: "yesterday-ish" }],
  ])("%s changes nothing", (_name, headers) => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.000Z") });
    const clock = new ServerClock();
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:03 GMT" }));
    expect(clock.observe(new Headers(headers))).toBe(false);
    expect(clock.offsetMs).toBe(3_500);
  });
});

describe("the clock is learnt only from fresh answers", () => {
  it("a CDN's 2 h old copy of a read does not move the clock: the next award is accepted first time", async () => {
    const hub = serverClient(mock.baseUrl);
    mock.serveCachedNext(1, 7_200);
    await hub.getHub();
    expect(mock.requests).toHaveLength(1);
    expect(Math.abs(hub.clockOffsetMs)).toBeLessThan(2_000);
    await hub.awardPoints(award);
    await hub.awardPoints({ ...award, ref: "clock-2" });
    expect(posts()).toHaveLength(2); // zero refused attempts
    expect(mock.ledger).toHaveLength(2);
  });

  it("a server without Date leaves the offset at its last value, never NaN", async () => {
    const noDate = createHubMock({ sendDateHeader: false });
    server.use(...noDate.handlers);
    const hub = serverClient(noDate.baseUrl);
    await hub.getHub();
    await hub.awardPoints(award);
    expect(hub.clockOffsetMs).toBe(0);
    expect(noDate.ledger).toHaveLength(1);
  });
});

describe("ServerClock corrections", () => {
  it("says whether the offset moved by more than a second", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.000Z") });
    const clock = new ServerClock();
    expect(clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:00 GMT" }))).toBe(false); // 500 ms
    expect(clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:01 GMT" }))).toBe(false); // exactly 1 s more
    expect(clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:03 GMT" }))).toBe(true);
    expect(clock.observe(new Headers({ date: "Mon, 23 Nov 2026 09:59:50 GMT" }))).toBe(true);
    expect(clock.offsetMs).toBe(-9_500);
  });

  it("starts at no offset and stamps whole Unix seconds, rounded down", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.999Z") });
    const clock = new ServerClock();
    expect(clock.offsetMs).toBe(0);
    expect(clock.timestamp()).toBe(String(Date.parse("2026-11-23T10:00:00Z") / 1000));
  });
});
