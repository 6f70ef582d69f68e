/**
 * How many runs the properties make, and with which seed. `npm test`: a few seconds, a fixed
 * seed under CI (`CI=true`), fast-check's random seed elsewhere (printed with any failure).
 * `npm run test:properties:long`: ten times the runs with a random seed, printed at the start;
 * `FC_SEED=<n>` replays a seed in either mode.
 */
// @ts-nocheck

import fc from "fast-check";

const LONG = process.env.PROPERTIES === "long";
const CI_SEED = 22;

function chooseSeed(): number | undefined {
  if (process.env.FC_SEED) return Number(process.env.FC_SEED);
  if (LONG) return Math.floor(Math.random() * 2 ** 31);
  return process.env.CI === "true" || process.env.CI === "1" ? CI_SEED : undefined;
}

const seed = chooseSeed();
if (LONG) console.log(`[properties] long run: 10× the runs, seed ${seed} (FC_SEED=${seed} npm run test:properties:long replays it)`);

/** fast-check parameters for a property of `runs` runs (10× in the long run). */
export function params<T>(runs: number): fc.Parameters<T> {
  return { numRuns: LONG ? runs * 10 : runs, ...(seed !== undefined && { seed }) };
}

/** The vitest timeout of a property test: room for its runs on a loaded machine. */
export const timeoutFor = (ms: number) => (LONG ? ms * 10 : ms);
