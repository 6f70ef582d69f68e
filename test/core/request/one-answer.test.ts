// No single answer rules every later call: a wait further than a call may wait is kept by no one
// (the next call asks again), a call's own limits hold while it waits for a slot, an aborted wait
// gives its start back, a budget's exchange is no part of an attempt's time, the hub's dates are
// read in the hub's time. Under fake timers, to the millisecond.
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient, RateLimitError } from "public-hub-sdk";
import { HubServerClient, type BudgetStore } from "public-hub-sdk/server";
import { memoryBudget } from "../../../src/core/pace";
import { BASE, client, run, scripted } from "../../helpers/scripted-fetch";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const rejection = (result: PromiseSettledResult<unknown> | undefined) => (result as PromiseRejectedResult).reason as Error & Record<string, unknown>;

describe("no single answer rules every later call", () => {
  // Real time (awardMany's signer and reader take real turns), 5 s: left out of mutation runs, where
  // it would run for every mutant of the loop; the pace tests (test/core/pace.test.ts) state its rows.
  it.skipIf(process.env.HUB_MUTATION_RUN)("a maintenance page's Retry-After of an hour: a campaign waits, probes one award at a time, and goes on when the hub is back", async () => {
    // The page is up for 1.5 s from the first request.
    let start: number | undefined;
    const sent: number[] = [];
    const applied = new Set<string>();
    const fetch = async (_url: unknown, init?: RequestInit) => {
      start ??= Date.now();
      sent.push(Date.now() - start);
      if (Date.now() - start < 1_500) return new Response("<title>Down for maintenance</title>", { status: 503, headers: { "retry-after": "3600", "content-type": "text/html" } });
      const { ref } = JSON.parse(String(init?.body)) as { ref: string };
      applied.add(ref);
      return Response.json({ ref, awarded: 1, duplicate: false });
    };
    const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: fetch as typeof globalThis.fetch });
    const awards = Array.from({ length: 20 }, (_, i) => ({ wallet: "0xabc", amount: 1, ref: `m-${i}` }));
    await expect(server.awardMany(awards, { concurrency: 4 })).resolves.toMatchObject({ applied: 20, failed: [] });
    expect(applied.size).toBe(20);
    // While the page was up: the four first awards, then one probe every 2 s at most (the rate's floor).
    expect(sent.filter((at) => at < 1_500).length).toBeLessThanOrEqual(5);
  }, 15_000);

  it("a call's own limits hold while it waits for a slot: no slot within them, a RateLimitError, nothing sent", async () => {
    let open!: () => void;
    const script = scripted([{ hold: new Promise<void>((resolve) => (open = resolve)) }, {}]);
    const hub = client(script.fetch, { maxConcurrency: 1 });
    const held = hub.getHub();
    const [late] = await run([() => hub.getHub({ retry: 0, timeout: 500 })]);
    expect(rejection(late)).toBeInstanceOf(RateLimitError);
    expect(rejection(late).message).toBe("Not sent: all 1 slots (maxConcurrency) stayed busy longer than this call may wait (500 ms).");
    expect(rejection(late)).toMatchObject({ attempts: 0, mayHaveBeenApplied: false });
    expect(script.times).toEqual([0]);
    open();
    await run([() => held]);
    // The slot it left is not taken twice: the next call is the only one in flight.
    await run([() => hub.getHub()]);
    expect(script.mostInFlight()).toBe(1);
  });

  it("calls aborted while they wait give their starts back: a new call waits for no start nobody uses", async () => {
    const script = scripted([{ status: 503, headers: { "retry-after": "3600" } }, {}]);
    const hub = client(script.fetch, { maxConcurrency: 32 });
    await run([() => hub.getHub()]);
    // At the rate's floor, one start every 2 s: ten calls wait for starts up to 20 s away.
    const controller = new AbortController();
    const waiting = Array.from({ length: 10 }, () => hub.getHub({ signal: controller.signal }).catch((error: unknown) => error));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    await Promise.all(waiting);
    await run([() => hub.getHub()]);
    expect(script.times).toEqual([0, 2_000]);
  });

  it("a slow budget's exchange is no part of an attempt's timeout: the award applied is sent once, and succeeds", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
    let sent = 0;
    const fetch = async () => (sent++, Response.json({ ref: "r-1", awarded: 1, duplicate: false }));
    // Each exchange with the shared keeper takes 300 ms; an attempt may take 200.
    const slow: BudgetStore = {
      open: () => {
        const budget = memoryBudget();
        return { update: (step) => new Promise((resolve) => setTimeout(() => resolve(budget.update(step)), 300)) };
      },
    };
    const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", timeout: 200, budget: slow, fetch: fetch as typeof globalThis.fetch });
    const [result] = await run([() => server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).withResponse()]);
    expect(result).toMatchObject({ status: "fulfilled", value: { attempts: 1 } });
    expect(sent).toBe(1);
  });

  it("a HubClient whose hub's clock is 90 s ahead waits the 5 s a Retry-After date asks, in the hub's time, where Date is readable", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"], now: 1_800_000_000_000 });
    const start = Date.now();
    const times: number[] = [];
    const fetch = async () => {
      times.push(Date.now() - start);
      const hubNow = Date.now() + 90_000;
      const date = new Date(hubNow).toUTCString();
      if (times.length === 1) return Response.json({}, { status: 429, headers: { date, "retry-after": new Date(hubNow + 5_000).toUTCString() } });
      return Response.json({ slug: "alpha" }, { headers: { date } });
    };
    const hub = new HubClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", logLevel: "off", fetch: fetch as typeof globalThis.fetch });
    const [result] = await run([() => hub.getHub()]);
    expect(result!.status).toBe("fulfilled");
    // Date has whole seconds: up to a second more, never less.
    expect(times[1]).toBeGreaterThanOrEqual(5_000);
    expect(times[1]).toBeLessThanOrEqual(6_000);
  });
});
