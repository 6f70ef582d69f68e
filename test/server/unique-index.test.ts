/**
 * One ref, one credit, on hubs that enforce it with a unique index and answer a reuse the way their
 * framework does: Django REST framework's 400 on `ref`, Hono's 409 text, NestJS's 409. A reuse is a
 * duplicate; a refusal naming another field never is, whatever a profile says; after an attempt
 * whose answer was lost, "already exists" is that attempt's award.
 */
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { BadRequestError, ConflictError, UnauthorizedError, type HubProfile } from "public-hub-sdk";
import { HubServerClient, type JournalEntry } from "public-hub-sdk/server";

const BASE = "https://unique.test/api/v1";
const EARN = `${BASE}/hub/alpha/bits/earn`;
type Award = { wallet?: unknown; amount?: unknown; kind?: unknown; reason?: unknown; ref?: unknown };

/**
 * A hub as Django REST framework builds it by default: a ModelSerializer over a model whose `ref`
 * is unique, its field errors `{ field: [messages] }`. Its ledger is the truth the tests compare to.
 * `lose` names refs whose first answer is lost after the hub committed (the connection cut).
 */
function drfHub(lose: Set<string> = new Set()) {
  const ledger = new Map<string, Award>();
  let posts = 0;
  const handler = http.post(EARN, async ({ request }) => {
    posts++;
    const award = (await request.json()) as Award;
    const errors: Record<string, string[]> = {};
    if (typeof award.wallet !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(award.wallet)) errors.wallet = ["Enter a valid value."];
    if (!Number.isInteger(award.amount)) errors.amount = ["A valid integer is required."];
    else if ((award.amount as number) > 1_000_000) errors.amount = ["Ensure this value is less than or equal to 1000000."];
    if (ledger.has(String(award.ref))) errors.ref = ["award with this ref already exists."];
    if (Object.keys(errors).length > 0) return HttpResponse.json(errors, { status: 400 });
    ledger.set(String(award.ref), award);
    if (lose.delete(String(award.ref))) return HttpResponse.error(); // committed, then the answer lost
    return HttpResponse.json({ id: ledger.size, ...award }, { status: 201 });
  });
  return { handler, ledger, posts: () => posts };
}

const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const client = (profile?: HubProfile) => new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: { backoff: 1 }, ...(profile && { profile }) });
const wallet = (n: number) => `0x${String(n).padStart(40, "0")}`;
const award = { wallet: wallet(1), amount: 5, reason: "quest", ref: "quest-1" };

describe("a reuse of a ref, answered as a unique index answers it, is a duplicate", () => {
  it.each([
    ["Django REST framework: 400 on ref", 400, { ref: ["award with this ref already exists."] }, {}],
    ["Hono: 409 text quoting the ref", 409, "Award with ref quest-1 already exists", { "content-type": "text/plain; charset=UTF-8" }],
    ["NestJS: 409 ConflictException", 409, { message: "Award with ref quest-1 already exists", error: "Conflict", statusCode: 409 }, {}],
    ["Rails: 422 has already been taken", 422, { ref: ["has already been taken"] }, {}],
    ["Flask: 409 HTML page", 409, "<!doctype html>\n<html lang=en>\n<title>409 Conflict</title>\n<h1>Conflict</h1>\n<p>Award with ref quest-1 already exists</p>\n", { "content-type": "text/html; charset=utf-8" }],
    ["SQLite's unique constraint, passed through", 400, { detail: "UNIQUE constraint failed: award.ref" }, {}],
  ])("%s", async (_name, status, body, headers) => {
    server.use(http.post(EARN, () => (typeof body === "string" ? new HttpResponse(body, { status, headers }) : HttpResponse.json(body, { status, headers }))));
    const result = await client().awardPoints(award).withResponse();
    expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: false, attempts: 1 });
    expect(result.response.status).toBe(status);
  });

  it("a conflict only where the hub says so: its words over a code's name", async () => {
    const fastify = { errors: [{ message: "ref quest-1 was already used for a different award", extensions: { code: "DUPLICATE_REF" } }] };
    server.use(http.post(EARN, () => HttpResponse.json(fastify, { status: 409 })));
    const error = await client().awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: "DUPLICATE_REF", mayHaveBeenApplied: false });
  });

  it("a refusal whose issues name another field is never a duplicate, even beside ref's, even with a profile that pins the status", async () => {
    const both = { wallet: ["Enter a valid value."], ref: ["award with this ref already exists."] };
    server.use(http.post(EARN, () => HttpResponse.json(both, { status: 400 })));
    const pinned: HubProfile = { version: 1, award: { duplicate: { status: 400 } } };
    for (const profile of [undefined, pinned]) {
      const error = await client(profile).awardPoints(award).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).issues.map((issue) => issue.path.join("."))).toEqual(["wallet", "ref"]);
    }
  });

  it("a refusal quoting the award's own values says nothing by them: a reason 'already exists' is no duplicate", async () => {
    server.use(http.post(EARN, () => new HttpResponse(`Invalid reason "already exists" for ref dup-replay-1`, { status: 400 })));
    const error = await client().awardPoints({ ...award, reason: "already exists", ref: "dup-replay-1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });
});

describe("an award whose first answer was lost", () => {
  it("meets 'already exists' on its retry: that attempt's award, applied earlier; a campaign counts it applied and journals it", async () => {
    const hub = drfHub(new Set(["quest-1"]));
    server.use(hub.handler);
    const result = await client().awardPoints(award).withResponse();
    expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: true, attempts: 2 });

    const again = drfHub(new Set(["quest-2"]));
    server.use(again.handler);
    const journal: JournalEntry[] = [];
    const summary = await client().awardMany([{ ...award, ref: "quest-2" }], { journal: { load: () => [], record: (entry) => void journal.push(entry) } });
    expect(summary).toMatchObject({ applied: 1, duplicates: 0, failed: [] });
    expect(journal.map((entry) => entry.ref)).toEqual(["quest-2"]);
  });

  it("a refusal after it keeps the verdict: the award may have been applied", async () => {
    let calls = 0;
    server.use(http.post(EARN, () => (++calls === 1 ? HttpResponse.error() : new HttpResponse("Invalid API key", { status: 401 }))));
    const error = await client().awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true, attempts: 2 });
  });
});

describe("a campaign on a unique-index hub counts what the hub's ledger holds", () => {
  it("repeats, new awards, a lost answer and invalid rows: applied + duplicates + failed match the ledger; a run again sends only what was not applied", async () => {
    const hub = drfHub(new Set(["new-3"]));
    server.use(hub.handler);
    const first = Array.from({ length: 5 }, (_, n) => ({ wallet: wallet(n), amount: 10, reason: "season", ref: `old-${n}` }));
    await client().awardMany(first);
    const fresh = Array.from({ length: 6 }, (_, n) => ({ wallet: wallet(n), amount: 10, reason: "season", ref: `new-${n}` }));
    const invalid = [
      { wallet: "0xabc", amount: 10, reason: "season", ref: "bad-wallet" },
      { wallet: wallet(9), amount: 7.5, reason: "season", ref: "bad-amount" },
      { wallet: wallet(9), amount: 2_000_000, reason: "season", ref: "too-much" },
    ];
    const batch = [...first.slice(0, 3), ...fresh, ...invalid];
    const entries: JournalEntry[] = [];
    const journal = { load: () => [...entries], record: (entry: JournalEntry) => void entries.push(entry) };
    const postsBefore = hub.posts();
    const summary = await client().awardMany(batch, { journal });
    // 6 new (one of them its answer lost: applied, not a duplicate), 3 repeats of the earlier run, 3 refused.
    expect(summary).toMatchObject({ applied: 6, duplicates: 3, total: 12 });
    // In the order they failed, which concurrency decides: sorted by ref.
    expect(summary.failed.map((failure) => [failure.award.ref, (failure.error as BadRequestError).issues.map((issue) => issue.path.join("."))]).sort()).toEqual([
      ["bad-amount", ["amount"]],
      ["bad-wallet", ["wallet"]],
      ["too-much", ["amount"]],
    ]);
    // The ledger: every valid ref once, none of the invalid.
    expect([...hub.ledger.keys()].sort()).toEqual([...first.map((a) => a.ref), ...fresh.map((a) => a.ref)].sort());
    expect(hub.posts() - postsBefore).toBe(13); // 12 awards, one re-sent after its lost answer

    const postsAgain = hub.posts();
    const again = await client().awardMany(batch, { journal });
    expect(again).toMatchObject({ applied: 0, duplicates: 0, skipped: 9 });
    expect(again.failed).toHaveLength(3);
    expect(hub.posts() - postsAgain).toBe(3); // only the refused rows, which the hub refuses again
  });

  it("with the profile doctor used to write for Django REST framework (400 alone), invalid awards are failures, not credits", async () => {
    const hub = drfHub();
    server.use(hub.handler);
    const profile: HubProfile = { version: 1, award: { status: 201, duplicate: { status: 400 } } };
    const summary = await client(profile).awardMany([
      { wallet: "0xabc", amount: 1, reason: "r", ref: "a" },
      { wallet: wallet(1), amount: 7.5, reason: "r", ref: "b" },
      { wallet: wallet(1), kind: "no-such-kind", ref: "c" },
    ]);
    expect(summary).toMatchObject({ applied: 0, duplicates: 0 });
    expect(summary.failed).toHaveLength(3);
    expect(hub.ledger.size).toBe(0);
  });
});

describe("https:// against a hub of plain HTTP", () => {
  it("a TLS handshake answered in plain HTTP was never sent, and stops a campaign naming http://", async () => {
    const tls = Object.assign(new TypeError("fetch failed"), { cause: Object.assign(new Error("wrong version number"), { code: "ERR_SSL_WRONG_VERSION_NUMBER" }) });
    const client = new HubServerClient({ baseUrl: "https://plain.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: { backoff: 1 }, fetch: async () => Promise.reject(tls) });
    const error = await client.awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "ERR_SSL_WRONG_VERSION_NUMBER", mayHaveBeenApplied: false });
    const stopped = await client.awardMany([award, { ...award, ref: "quest-2" }], { maxFailures: 1 }).catch((e: unknown) => e);
    expect((stopped as Error).message).toContain("answers plain HTTP, not TLS: use http:// in the base URL");
  });

  it("an award that timed out with no answer from the hub yet says what http:// would mean; once the hub answered, it does not", async () => {
    const silent: typeof fetch = (_input, init) => new Promise((_, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
    const client = new HubServerClient({ baseUrl: "https://plain.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, timeout: 20, fetch: silent });
    const error = await client.awardPoints(award).catch((e: unknown) => e);
    expect((error as Error).message).toContain("if it serves plain HTTP, its base URL is http://");
    let answered = false;
    const once: typeof fetch = (input, init) => (answered ? silent(input, init) : ((answered = true), Promise.resolve(Response.json({ slug: "alpha" }))));
    const heard = new HubServerClient({ baseUrl: "https://plain.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, timeout: 20, fetch: once });
    await heard.getHub();
    expect(((await heard.awardPoints(award).catch((e: unknown) => e)) as Error).message).not.toContain("plain HTTP");
  });
});
