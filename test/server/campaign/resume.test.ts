// "Interrupted at every point": a campaign stopped at each award, before it is sent or after the
// server applied it but before the journal recorded it, then run again with a new client over the
// same journal file. Each ref must be applied exactly once, and nothing the journal shows is resent.
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HubPromise, type AwardResult, type RequestOptions, type WithWriteResponse } from "public-hub-sdk";
import { HubServerClient, type AwardInput, type CampaignJournal, type JournalEntry } from "public-hub-sdk/server";
import { FileJournal } from "../../../src/server/campaign/file-journal";
import { useHubMock } from "../../helpers/mock-server";
import { SECRET } from "../../helpers/server-client";

/** What an aborted campaign rejects with (a CampaignStoppedError). */
const ABORTED = { name: "CampaignStoppedError", reason: "aborted" } as const;

const { mock } = useHubMock();
const dir = mkdtempSync(join(tmpdir(), "hub-resume-"));
let n = 0;
const COUNT = 8;
const input = (): AwardInput[] => Array.from({ length: COUNT }, (_, i) => ({ wallet: `0x${i % 3}`, amount: i + 1, ref: `r-${i}` }));

type Point = "before-send" | "after-send";

/** A client whose `crashAt`-th send stops the campaign at `point`, as a crash would. */
class CrashingClient extends HubServerClient {
  sends = 0;
  constructor(
    readonly crash?: { at: number; point: Point; controller: AbortController },
  ) {
    super({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: SECRET, retry: { backoff: 1 } });
  }
  override awardPoints<T = AwardResult>(award: AwardInput, options?: RequestOptions<T>): HubPromise<T, WithWriteResponse<T>> {
    const call = this.sends++;
    const crash = this.crash?.at === call ? this.crash : undefined;
    if (crash?.point === "before-send") crash.controller.abort(new Error("crash"));
    const sent = super.awardPoints(award, options).withResponse();
    if (crash?.point !== "after-send") return new HubPromise(sent);
    return new HubPromise(
      sent.then(() => {
        crash.controller.abort(new Error("crash"));
        throw new Error("crashed before the journal line was written");
      }),
    );
  }
}

const journalRefs = (path: string) =>
  existsSync(path) ? readFileSync(path, "utf8").split("\n").slice(1, -1).map((line) => JSON.parse(line).ref as string) : [];
const postedRefs = (from: number) => mock.requests.slice(from).filter((r) => r.method === "POST").map((r) => JSON.parse(r.body).ref as string);

function expectExactlyOnce() {
  const refs = mock.ledger.map((a) => a.ref).sort();
  expect(refs).toEqual(input().map((a) => a.ref).sort());
}

describe("awardMany resumes from its journal", () => {
  const cases = Array.from({ length: COUNT }, (_, at) => (["before-send", "after-send"] as const).map((point) => [at, point] as const)).flat();

  it.each(cases)("stopped at send #%i, %s: the run again applies each award exactly once", async (at, point) => {
    const path = join(dir, `case-${n++}.journal`);
    const controller = new AbortController();
    const first = new CrashingClient({ at, point, controller });
    await expect(first.awardMany(input(), { concurrency: 2, journal: path, signal: controller.signal })).rejects.toMatchObject(ABORTED);
    const done = journalRefs(path);
    const applied = mock.ledger.map((a) => a.ref);
    expect(done.every((ref) => applied.includes(ref))).toBe(true); // the journal never claims more than the server did
    if (point === "after-send") expect(applied).toContain(`r-${at}`); // …and here it knows less

    const before = mock.requests.length;
    const summary = await new CrashingClient().awardMany(input(), { concurrency: 2, journal: path });
    // Awards in flight at the crash were applied unanswered: the hub answers them as duplicates.
    expect(summary.applied + summary.duplicates + summary.skipped).toBe(COUNT);
    expect(summary.skipped).toBe(done.length);
    expect(postedRefs(before).filter((ref) => done.includes(ref))).toEqual([]);
    expectExactlyOnce();
    expect(journalRefs(path).sort()).toEqual(input().map((a) => a.ref).sort());
  });

  it("a journal whose writes stop at each point (a crash while writing), then a torn line: resumes exactly once", async () => {
    for (let stopAfter = 0; stopAfter < COUNT; stopAfter++) {
      mock.reset();
      const path = join(dir, `writes-${stopAfter}.journal`);
      const file = await FileJournal.open(path, { hub: "alpha" });
      let written = 0;
      const journal: CampaignJournal = {
        load: () => file.load(),
        record: async (entry: JournalEntry) => {
          if (written++ >= stopAfter) throw new Error("process died");
          await file.record(entry);
        },
      };
      await expect(new CrashingClient().awardMany(input(), { concurrency: 3, journal })).rejects.toThrow("process died");
      await file.close();
      appendFileSync(path, '{"ref":"r-'); // the line being written when it died
      const done = journalRefs(path);
      expect(done).toHaveLength(stopAfter);
      const before = mock.requests.length;
      const summary = await new CrashingClient().awardMany(input(), { concurrency: 3, journal: path });
      expect(summary.failed).toEqual([]);
      expect(summary.skipped).toBe(done.length);
      expect(postedRefs(before).filter((ref) => done.includes(ref))).toEqual([]);
      expectExactlyOnce();
    }
  });
});
