/**
 * Issue 30: "no campaign counts an award twice or as failed", whatever mix of answers. A model hub
 * holds refs; each send is answered applied (or duplicate, when the hub already held the ref), lost
 * after the hub applied it, refused, or cut by a Ctrl-C. Runs repeat over one journal until one
 * ends with no failure. Each run's counts add up to its input; a duplicate is never a failure; the
 * journal names each ref once and only refs the hub holds; and a run again sends nothing.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CampaignStoppedError, type AwardInput, type JournalEntry } from "public-hub-sdk/server";
import { awardMany } from "../../src/server/campaign/campaign";
import { campaignContext } from "../../src/server/campaign/errors";
import { params, timeoutFor } from "./settings";

type Answer = "applied" | "lost" | "refused" | "ctrl-c";
const answer = fc.constantFrom<Answer>("applied", "applied", "lost", "refused", "ctrl-c");

describe("any mix of applied, duplicate and failed answers, and resumes", () => {
  it(
    "no award is counted twice or as failed for a duplicate; a finished campaign sends nothing again",
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 10 }), // distinct refs
          fc.array(fc.nat(9), { maxLength: 4 }), // identical repeats in the input
          fc.subarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), // refs the hub already holds (another sender's)
          fc.array(fc.array(answer, { maxLength: 12 }), { maxLength: 4 }), // the answers of each interrupted or failing run
          fc.integer({ min: 1, max: 4 }),
          async (count, repeats, heldBefore, runs, concurrency) => {
            const awards: AwardInput[] = Array.from({ length: count }, (_, i) => ({ wallet: `0x${i}`, amount: i + 1, ref: `p-${i}` }));
            const input = [...awards, ...repeats.filter((i) => i < count).map((i) => ({ ...awards[i]! }))];
            const held = new Set(heldBefore.filter((i) => i < count).map((i) => `p-${i}`));
            const entries: JournalEntry[] = [];
            const journal = { load: () => [...entries], record: (entry: JournalEntry) => void entries.push(entry) };

            const run = async (script: Answer[]) => {
              const controller = new AbortController();
              let sends = 0;
              const expected = { duplicates: 0, failed: 0 };
              const send = async (award: AwardInput, { signal }: { signal: AbortSignal }) => {
                const reply = script[sends++] ?? "applied";
                await new Promise((resolve) => setTimeout(resolve, sends % 3));
                // An error after the Ctrl-C is the campaign's stop, not a failure of the award.
                if (reply === "refused") {
                  if (!signal.aborted) expected.failed++;
                  throw new Error("refused");
                }
                const duplicate = held.has(award.ref);
                held.add(award.ref);
                if (reply === "lost") {
                  if (!signal.aborted) expected.failed++;
                  throw Object.assign(new Error("answer lost"), { mayHaveBeenApplied: true });
                }
                if (reply === "ctrl-c") {
                  controller.abort(new Error("Ctrl-C"));
                  throw signal.reason;
                }
                if (duplicate) expected.duplicates++;
                return { duplicate };
              };
              const outcome = await awardMany(input, send, { concurrency, journal, signal: controller.signal, maxFailures: Infinity }, campaignContext).then(
                (summary) => ({ summary, inFlight: 0 }),
                (error: unknown) => {
                  expect(error).toBeInstanceOf(CampaignStoppedError);
                  return { summary: (error as CampaignStoppedError).summary, inFlight: (error as CampaignStoppedError).inFlight.length };
                },
              );
              const { summary } = outcome;
              // Each award read is counted once: applied, duplicate, skipped, failed, or cut short.
              expect(summary.applied + summary.duplicates + summary.skipped + summary.failed.length + outcome.inFlight).toBe(summary.total);
              // A duplicate answer is a duplicate, never a failure; only refusals and lost answers fail.
              expect(summary.duplicates).toBe(expected.duplicates);
              expect(summary.failed).toHaveLength(expected.failed);
              return { ...outcome, sends };
            };

            for (const script of runs) await run(script);
            const last = await run([]);
            expect(last.summary.failed).toEqual([]);
            expect(last.summary.total).toBe(input.length);
            // The journal names each ref once, and only refs the hub holds.
            const refs = entries.map((entry) => entry.ref);
            expect(new Set(refs).size).toBe(refs.length);
            expect(refs.sort()).toEqual(awards.map((award) => award.ref).sort());
            expect(refs.every((ref) => held.has(ref))).toBe(true);
            // A run again sends nothing: every award is skipped.
            const again = await run([]);
            expect(again.sends).toBe(0);
            expect(again.summary).toMatchObject({ applied: 0, duplicates: 0, skipped: input.length, failed: [] });
          },
        ),
        params(100),
      );
    },
    timeoutFor(60_000),
  );
});
