import { afterEach, describe, expect, it, vi } from "vitest";
import { createHubMock } from "public-hub-sdk/mock";
import { ServerClock } from "../../src/server/server-clock";
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
    clock.observe(new Headers(headers));
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
  it("narrows the offset with each answer that agrees, and starts over on one that does not (a clock was set)", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.000Z") });
    const clock = new ServerClock();
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:00 GMT" }));
    expect(clock.offsetMs).toBe(500); // within [0, 1,000]
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:01 GMT" }));
    expect(clock.offsetMs).toBe(1_000); // [1,000, 2,000] meets [0, 1,000] at 1,000
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:03 GMT" }));
    expect(clock.offsetMs).toBe(3_500);
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 09:59:50 GMT" }));
    expect(clock.offsetMs).toBe(-9_500);
  });

  it("an answer that took its time bounds the offset less: its second may have been any time the request was out", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.000Z") });
    const clock = new ServerClock();
    const sent = Date.now();
    clock.observe(new Headers({ date: "Mon, 23 Nov 2026 10:00:05 GMT" }), sent, sent + 400);
    // Within [5,000 − 400, 6,000]: the middle.
    expect(clock.offsetMs).toBe(5_300);
    expect(clock.localTime(Date.parse("2026-11-23T10:00:10Z"))).toBe(Date.parse("2026-11-23T10:00:10Z") - 4_600);
  });

  it("starts at no offset: a server time is this machine's", () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00.999Z") });
    const clock = new ServerClock();
    expect(clock.offsetMs).toBe(0);
    expect(clock.localTime(1_800_000_000_000)).toBe(1_800_000_000_000);
  });
});
