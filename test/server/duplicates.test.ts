import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { HubApiError, HubClient } from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";
import type { JournalEntry } from "public-hub-sdk/server";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, server } = useHubMock();
const EARN = () => `${mock.baseUrl}/hub/alpha/bits/earn`;
const award = { wallet: "0xabc", amount: 5, reason: "quest", ref: "dup-1" };
const problem = (type: string, detail: string, headers: Record<string, string> = {}) =>
  HttpResponse.json({ type, title: "Conflict", status: 409, detail }, { status: 409, headers: { "content-type": "application/problem+json", "request-id": "req_9", ...headers } });

describe("a duplicate is an outcome, however the hub says it", () => {
  it("a 409 naming a duplicate resolves, with duplicate and the hub's request id; a second call with the ref does too", async () => {
    server.use(http.post(EARN(), () => problem("https://hub.example/problems/duplicate-ref", "ref dup-1 was already credited")));
    const result = await serverClient(mock.baseUrl).awardPoints(award).withResponse();
    expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: false, attempts: 1, requestId: "req_9" });
    expect(result.response.status).toBe(409);
    await expect(serverClient(mock.baseUrl).awardPoints(award)).resolves.toMatchObject({ type: "https://hub.example/problems/duplicate-ref" });
  });

  it("applied, its answer lost, retried into a 409: this call's own award (duplicate, applied earlier)", async () => {
    let calls = 0;
    server.use(http.post(EARN(), () => (++calls === 1 ? HttpResponse.error() : problem("https://hub.example/problems/duplicate-ref", "already used"))));
    const result = await serverClient(mock.baseUrl).awardPoints(award).withResponse();
    expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: true, attempts: 2 });
  });

  it("a conflict (the ref went with another award) stays an error, with its fields", async () => {
    server.use(http.post(EARN(), () => problem("https://hub.example/problems/ref-conflict", "ref dup-1 is already used by another award")));
    const error = await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubApiError);
    expect(error).toMatchObject({ status: 409, code: "https://hub.example/problems/ref-conflict", detail: "ref dup-1 is already used by another award", requestId: "req_9", mayHaveBeenApplied: false });
  });

  it("a 2xx with Idempotent-Replayed, or the mock's own flag, says duplicate; a fresh award does not", async () => {
    const fresh = await serverClient(mock.baseUrl).awardPoints({ ...award, ref: "dup-2" }).withResponse();
    expect(fresh.duplicate).toBe(false);
    const again = await serverClient(mock.baseUrl).awardPoints({ ...award, ref: "dup-2" }).withResponse();
    expect(again.duplicate).toBe(true);
    server.use(http.post(EARN(), () => HttpResponse.json({ id: "x" }, { headers: { "idempotent-replayed": "true" } })));
    expect((await serverClient(mock.baseUrl).awardPoints(award).withResponse()).duplicate).toBe(true);
  });

  it("the duplicate option reads a hub that says it otherwise; a throwing one is logged and the rule decides", async () => {
    server.use(http.post(EARN(), () => HttpResponse.json({ error: "E_TAKEN" }, { status: 409 })));
    const duplicate = (answer: { status: number; body: unknown }) => (answer.body as { error?: string }).error === "E_TAKEN" || undefined;
    await expect(serverClient(mock.baseUrl, { duplicate }).awardPoints(award).withResponse()).resolves.toMatchObject({ duplicate: true });
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} };
    const throwing = () => {
      throw new Error("bad reader");
    };
    await expect(serverClient(mock.baseUrl, { duplicate: throwing, logger, logLevel: "warn" }).awardPoints(award)).rejects.toMatchObject({ status: 409 });
    expect(lines[0]).toBe('[public-hub] observer-failed option=duplicate error="bad reader"');
  });
});

describe("the bugs of the old pipeline", () => {
  it("maxConcurrency: undefined keeps the default: the call settles", async () => {
    const hub = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", maxConcurrency: undefined as never, logLevel: "off" });
    await expect(hub.getHub()).resolves.toMatchObject({ slug: "alpha" });
  });

  it("a fetch deaf to abort never holds a turn past its timeout", async () => {
    let calls = 0;
    const deaf = (async () => {
      if (++calls <= 2) return new Promise<Response>(() => undefined);
      return Response.json({ slug: "alpha" });
    }) as typeof globalThis.fetch;
    const hub = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", fetch: deaf, timeout: 50, retry: 0, maxConcurrency: 1, logLevel: "off" });
    await expect(hub.getHub()).rejects.toMatchObject({ name: "HubTimeoutError" });
    await expect(hub.getHub()).rejects.toMatchObject({ name: "HubTimeoutError" });
    await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
  });

  it("a read whose redirect the runtime hides (a browser's opaque redirect) is sent again for the runtime to follow", async () => {
    const seen: Array<RequestRedirect | undefined> = [];
    // A browser's answer to a redirect under "manual" is status 0 with no Location: Response.error() has that shape.
    const opaque = (async (_url: unknown, init?: RequestInit) => (seen.push(init?.redirect), init?.redirect === "follow" ? Response.json({ slug: "alpha" }) : Response.error())) as typeof globalThis.fetch;
    const hub = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", fetch: opaque, logLevel: "off" });
    await expect(hub.getHub()).resolves.toEqual({ slug: "alpha" });
    expect(seen).toEqual(["manual", "follow"]);
  });
});

describe("pacing by what the hub announces", () => {
  it("what is left goes at once, in any number; a window with nothing left holds the next until its reset", async () => {
    const starts: number[] = [];
    const fetch = (async () => {
      starts.push(Date.now());
      return Response.json({ slug: "alpha" }, { headers: { "ratelimit-policy": '"default";q=10;w=1', ratelimit: '"default";r=5;t=1' } });
    }) as typeof globalThis.fetch;
    const hub = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", fetch, logLevel: "off" });
    await hub.getHub(); // the first answer says 5 are left
    await Promise.all([hub.getHub(), hub.getHub(), hub.getHub()]);
    // Plenty left: no spacing from the policy (its quota is no pace to keep).
    expect(starts[3]! - starts[0]!).toBeLessThan(150);

    const held: number[] = [];
    const empty = (async () => {
      held.push(Date.now());
      return Response.json({ slug: "alpha" }, { headers: { "x-ratelimit-limit": "5", "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(Math.ceil(Date.now() / 1000) + 1) } });
    }) as typeof globalThis.fetch;
    const quiet = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", fetch: empty, logLevel: "off" });
    await quiet.getHub();
    await quiet.getHub();
    // Nothing left in the window: the next attempt waits for its reset (a spacing of 5 per window at least).
    expect(held[1]! - held[0]!).toBeGreaterThanOrEqual(150);
  });
});

describe("a duplicate is read from what the hub declares, never from text quoting the request (issue 35)", () => {
  it("a refusal whose message quotes a ref holding 'duplicate' or 'replay' fails, is not journaled, and a run again sends it", async () => {
    const refs = ["duplicate-7", "replay-8"];
    server.use(http.post(EARN(), async ({ request }) => {
      const { ref } = (await request.json()) as { ref: string };
      return HttpResponse.json({ error: { code: "invalid_wallet", message: `ref ${ref} refused: wallet unknown` } }, { status: 422 });
    }));
    const entries: JournalEntry[] = [];
    const journal = { load: () => [...entries], record: (entry: JournalEntry) => void entries.push(entry) };
    const input = refs.map((ref) => ({ ...award, ref }));
    const first = await serverClient(mock.baseUrl, { retry: 0 }).awardMany(input, { journal });
    expect(first.failed.map(({ error }) => (error as HubApiError).code)).toEqual(["invalid_wallet", "invalid_wallet"]);
    expect(entries).toEqual([]);
    const sent: string[] = [];
    server.use(http.post(EARN(), async ({ request }) => (sent.push(((await request.json()) as { ref: string }).ref), HttpResponse.json({ ok: true }))));
    const again = await serverClient(mock.baseUrl, { retry: 0 }).awardMany(input, { journal });
    expect(sent.sort()).toEqual(refs);
    expect(again.applied).toBe(2);
  });

  it("a real duplicate whose ref says 'other' or 'mismatch' resolves as one against the mock's 409 style", async () => {
    const strict = createHubMock({ baseUrl: "https://strict.example/api/v1", duplicateStyle: "409" });
    server.use(...strict.handlers);
    for (const ref of ["other-1", "mismatch-2", "different-3"]) {
      await serverClient(strict.baseUrl).awardPoints({ ...award, ref });
      const again = await serverClient(strict.baseUrl).awardPoints({ ...award, ref }).withResponse();
      expect({ ref, status: again.response.status, duplicate: again.duplicate }).toEqual({ ref, status: 409, duplicate: true });
    }
  });

  it("a 2xx whose status field says already_processed is a duplicate; one that says applied is not", async () => {
    server.use(http.post(EARN(), () => HttpResponse.json({ status: "already_processed", id: 7 })));
    expect((await serverClient(mock.baseUrl).awardPoints(award).withResponse()).duplicate).toBe(true);
    server.use(http.post(EARN(), () => HttpResponse.json({ status: "applied", id: 8 })));
    expect((await serverClient(mock.baseUrl).awardPoints(award).withResponse()).duplicate).toBe(false);
  });
});
