import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { BadRequestError, ForbiddenError, HubApiError, HubValidationError, NotFoundError, UnauthorizedError } from "public-hub-sdk";
import { CampaignStoppedError, dryRunAwards, type AwardInput, type CampaignProgress } from "public-hub-sdk/server";
import { awardMany } from "../../../src/server/campaign/campaign";
import { campaignContext } from "../../../src/server/campaign/errors";
import { systemicCause } from "../../../src/core/errors";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock, server } = useHubMock();
const dir = mkdtempSync(join(tmpdir(), "hub-stop-"));
let n = 0;
const freshJournalPath = () => join(dir, `season-${n++}.journal`);
const awards = (count: number, prefix = "s"): AwardInput[] =>
  Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: 1, reason: "season", ref: `${prefix}-${i}` }));
const posts = () => mock.requests.filter((request) => request.method === "POST");
const refusal = (promise: Promise<unknown>) => promise.then(() => expect.unreachable("resolved"), (error: unknown) => error);
const apiError = (Type: typeof HubApiError, status: number, code?: string) =>
  new Type({ status, code, message: `${status} ${code ?? ""}`, body: {}, headers: {} });

describe("awardMany stops a doomed campaign early (maxFailures)", () => {
  it("a wrong secret: stops after 10 refusals (the default) instead of sending all 300, and names the cause once", async () => {
    const error = await refusal(serverClient(mock.baseUrl, { secret: "wrong" }).awardMany(awards(300), { concurrency: 4 }));
    expect(error).toBeInstanceOf(CampaignStoppedError);
    const stopped = error as CampaignStoppedError;
    expect(stopped.failures).toBe(10);
    expect(stopped.reason).toMatch(/^401 invalid_signature: the key is unknown, or the secret does not match it/);
    expect(stopped.message).toContain("campaign stopped after 10 awards in a row failed with no success between them: 401 invalid_signature");
    expect(stopped.cause).toBeInstanceOf(UnauthorizedError);
    // At most concurrency - 1 more were in flight when the tenth refusal came back.
    expect(posts().length).toBeGreaterThanOrEqual(10);
    expect(posts().length).toBeLessThanOrEqual(13);
    expect(stopped.summary).toMatchObject({ applied: 0, dryRun: false });
    expect(stopped.summary.failed.length).toBeGreaterThanOrEqual(10);
    expect(mock.ledger).toHaveLength(0);
  });

  it("a server refusing the signature with a 400 that says so only in its message: the client explains it and the campaign stops, alike", async () => {
    let sent = 0;
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => (sent++, HttpResponse.json({ message: "bad signature" }, { status: 400 }))));
    const error = await refusal(serverClient(mock.baseUrl).awardMany(awards(20), { concurrency: 1, maxFailures: 3 }));
    expect(error).toBeInstanceOf(CampaignStoppedError);
    const stopped = error as CampaignStoppedError;
    expect(stopped.reason).toBe("400: the signature or timestamp was refused after the clock correction");
    expect((stopped.cause as Error).message).toContain("Usual causes: the secret does not belong to this clientId");
    expect(sent).toBe(3);
  });

  it("a key of another hub (403) and an unknown key (401) stop too, after maxFailures", async () => {
    const other = await refusal(serverClient(mock.baseUrl, { hub: "beta" }).awardMany(awards(50), { concurrency: 1, maxFailures: 3 }));
    expect((other as CampaignStoppedError).reason).toMatch(/^403 forbidden: the key is scoped to another hub/);
    expect(posts()).toHaveLength(3);
    const unknown = await refusal(serverClient(mock.baseUrl, { clientId: "pk_nobody" }).awardMany(awards(50), { concurrency: 1, maxFailures: 2 }));
    expect((unknown as CampaignStoppedError).reason).toMatch(/^401 invalid_api_key/);
    expect(posts()).toHaveLength(5);
  });

  it("the journal stays resumable: the rerun sends only what is not recorded as applied, and each award lands once", async () => {
    const journal = freshJournalPath();
    const all = awards(60);
    await serverClient(mock.baseUrl).awardMany(all.slice(0, 20), { journal });
    const stopped = await refusal(serverClient(mock.baseUrl, { secret: "wrong" }).awardMany(all, { journal, concurrency: 4, maxFailures: 5 }));
    expect(stopped).toBeInstanceOf(CampaignStoppedError);
    expect((stopped as CampaignStoppedError).summary.skipped).toBe(20);
    const before = posts().length;
    const summary = await serverClient(mock.baseUrl).awardMany(all, { journal, concurrency: 4 });
    expect(summary).toMatchObject({ applied: 40, skipped: 20, failed: [] });
    const resent = posts().slice(before).map((request) => JSON.parse(request.body).ref as string);
    expect(resent.filter((ref) => Number(ref.slice(2)) < 20)).toEqual([]);
    expect(mock.ledger).toHaveLength(60);
    expect(new Set(mock.ledger.map((award) => award.ref)).size).toBe(60);
  });

  it("a success between refusals resets the count; failures of one award (400, a bad row) never count", async () => {
    let sent = 0;
    // 4 refusals, 1 success, over and over: never 5 in a row.
    const flaky = async () => {
      if (++sent % 5 !== 0) throw apiError(UnauthorizedError, 401, "invalid_signature");
    };
    const summary = await awardMany(awards(40), flaky, { concurrency: 1, maxFailures: 5 }, campaignContext);
    expect(summary).toMatchObject({ total: 40, applied: 8 });
    expect(summary.failed).toHaveLength(32);
    const badBody = async () => {
      throw apiError(BadRequestError, 400, "invalid_award");
    };
    const bad = await awardMany(awards(30), badBody, { concurrency: 1, maxFailures: 2 }, campaignContext);
    expect(bad.failed).toHaveLength(30);
    const rows = [...awards(2), ...Array.from({ length: 20 }, (_, i) => ({ wallet: "", amount: 1, ref: `bad-${i}` }))];
    const invalid = await awardMany(rows, async () => undefined, { concurrency: 1, maxFailures: 2 }, campaignContext);
    expect(invalid).toMatchObject({ applied: 2 });
    expect(invalid.failed).toHaveLength(20);
  });

  it("maxFailures: Infinity never stops; anything but an integer ≥ 1 is refused before sending", async () => {
    const refuse = async () => {
      throw apiError(ForbiddenError, 403, "forbidden");
    };
    const summary = await awardMany(awards(25), refuse, { concurrency: 2, maxFailures: Infinity }, campaignContext);
    expect(summary.failed).toHaveLength(25);
    const first = await refusal(awardMany(awards(25), refuse, { concurrency: 1, maxFailures: 1 }, campaignContext));
    expect(first).toMatchObject({ name: "CampaignStoppedError", failures: 1 });
    expect((first as CampaignStoppedError).summary.failed).toHaveLength(1);
    for (const maxFailures of [0, 1.5, -1, Number.NaN]) {
      const error = await refusal(awardMany(awards(1), refuse, { maxFailures }, campaignContext));
      expect(error).toBeInstanceOf(HubValidationError);
      expect((error as HubValidationError).issues[0]).toMatchObject({ path: ["maxFailures"], message: "maxFailures must be an integer ≥ 1, or Infinity" });
    }
  });

  it("names each systemic cause, and none for a failure of one award", () => {
    expect(systemicCause(apiError(UnauthorizedError, 401))).toMatch(/^401: the key is unknown/);
    expect(systemicCause(apiError(ForbiddenError, 403, "forbidden"))).toMatch(/^403 forbidden: the key is scoped to another hub/);
    expect(systemicCause(apiError(NotFoundError, 404, "hub_not_found"))).toMatch(/^404 hub_not_found: no such hub/);
    expect(systemicCause(apiError(BadRequestError, 400, "invalid_signature"))).toMatch(/^400 invalid_signature: the signature or timestamp was refused/);
    expect(systemicCause(apiError(BadRequestError, 400, "timestamp_out_of_window"))).toBeDefined();
    expect(systemicCause(apiError(BadRequestError, 400, "invalid_award"))).toBeUndefined();
    expect(systemicCause(apiError(BadRequestError, 400))).toBeUndefined();
    expect(systemicCause(apiError(HubApiError, 503, "unavailable"))).toBeUndefined();
    expect(systemicCause(new Error("401"))).toBeUndefined();
  });
});

describe("dry runs count what they would send, never 'applied'", () => {
  it("dryRunAwards needs no key, sends nothing, and names its counts (summary and onProgress)", async () => {
    const seen: CampaignProgress[] = [];
    const input = [...awards(3), awards(1)[0]!, { wallet: "", amount: 1, ref: "bad" }];
    const summary = await dryRunAwards(input, { onProgress: (p) => seen.push(p) });
    expect(summary).toMatchObject({ dryRun: true, total: 5, applied: 0, wouldSend: 3, skipped: 1 });
    expect(summary.failed).toHaveLength(1);
    expect(seen.at(-1)).toMatchObject({ done: 5, applied: 0, wouldSend: 3, skipped: 1, failed: 1 });
    expect(seen.every((p) => p.applied === 0)).toBe(true);
    expect(mock.requests).toHaveLength(0);
  });

  it("reads the journal without writing to it, and refuses a journal of another hub", async () => {
    const journal = freshJournalPath();
    await serverClient(mock.baseUrl).awardMany(awards(2), { journal });
    const summary = await dryRunAwards(awards(5), { journal, hub: "alpha" });
    expect(summary).toMatchObject({ wouldSend: 3, skipped: 2, applied: 0 });
    const error = await refusal(dryRunAwards(awards(5), { journal, hub: "beta" }));
    expect(error).toBeInstanceOf(HubValidationError);
    expect((error as Error).message).toBe(`Invalid campaign journal: ${journal}, line 1 was written for hub "alpha", not "beta"`);
  });

  it("dryRunAwards reads a journal object", async () => {
    const journal = { load: () => [{ ref: "s-0", hash: "x", status: "applied" as const }], record: () => undefined };
    const summary = await dryRunAwards(awards(3), { journal });
    expect(summary).toMatchObject({ dryRun: true, applied: 0 });
    expect(summary.failed.map((f) => f.error.name)).toEqual(["RefConflictError"]); // s-0 journaled with another hash
    expect(summary.wouldSend).toBe(2);
    expect(mock.requests).toHaveLength(0);
  });

  it("the real run's summary has wouldSend 0", async () => {
    const summary = await serverClient(mock.baseUrl).awardMany(awards(2));
    expect(summary).toMatchObject({ applied: 2, wouldSend: 0 });
  });
});

describe("what counts as systemic, and what the stop says", () => {
  it("only the SDK's own API errors can be systemic: a plain object with status 401 is not", () => {
    expect(systemicCause({ status: 401, code: "invalid_signature" })).toBeUndefined();
  });

  it("a signing code counts only under 400: a 5xx or 409 naming the signature is a failure of that award", () => {
    expect(systemicCause(apiError(HubApiError, 503, "signature_service_unavailable"))).toBeUndefined();
    expect(systemicCause(apiError(HubApiError, 409, "timestamp_conflict"))).toBeUndefined();
  });

  it("the stop's message tells what to do next", async () => {
    const error = await refusal(serverClient(mock.baseUrl, { secret: "wrong" }).awardMany(awards(3), { maxFailures: 1 }));
    expect((error as CampaignStoppedError).message).toContain(
      "No later award could succeed; fix the cause, then run again (with the same journal, only awards not recorded as applied are sent)",
    );
  });

  it("a bad maxFailures is refused as an invalid campaign option", async () => {
    const error = await refusal(awardMany(awards(1), async () => ({}), { maxFailures: 0 }, campaignContext));
    expect((error as HubValidationError).message).toBe("Invalid campaign options: maxFailures: maxFailures must be an integer ≥ 1, or Infinity");
  });
});
