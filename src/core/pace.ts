/**
 * The pace of one hub key: what its answers said of its limit, and the starts made under it. The
 * two steps (`turn`: when may the next attempt start; `learn`: what an answer said) change a `Pace`
 * and nothing else, so a keeper shared by many processes (`redisBudget`) can run them atomically
 * on one pace, on its own clock. A client alone keeps its pace in memory (`memoryBudget`).
 */
import type { RateLimitFields } from "./answer";

/** Where the count of starts stood at a time (the rate a throttle refused is measured between two). */
export type PaceMark = [at: number, started: number];

/**
 * One hub key's pace: plain JSON, every time in epoch milliseconds (a shared keeper's on its own clock).
 */
export interface Pace {
  /** No attempt starts before this: a wait a 429 or 503 asked for. */
  pausedUntil: number;
  /** When the latest attempt started (or will): the next is spaced from it by the adapted rate. */
  lastStart: number;
  /** Attempts started (or given a start), for reading `remaining` against attempts the server had not yet counted. */
  started: number;
  /**
   * What the hub's latest window has left, when it ends, and the most starts a window was seen to
   * hold (`size`). Past its end, the next window is assumed to hold as many for a second, until an
   * attempt started in it is answered (`from`: the count of starts before it, while it is assumed).
   */
  allowance?:
    | {
        /** Starts the window has left (the hub's `remaining`, less the starts after the answered one). */
        left: number;
        /** When the window ends. */
        until: number;
        /** The most starts a window was seen to hold. */
        size: number;
        /** While the window is assumed: the count of starts before it. */
        from?: number | undefined;
      }
    | undefined;
  /** A throttle that said nothing: the rate it refused, when, and the count of starts then. The adapted rate climbs back from it. */
  throttled?:
    | {
        /** The rate the throttle refused, in attempts per second (the adapted rate starts at 70 % of it). */
        rate: number;
        /** When it refused. */
        at: number;
        /** The count of starts then. */
        started: number;
      }
    | undefined;
  /** A mark of the count of starts, at least a second before `newer`: the rate a throttle refused is measured since it. */
  older: PaceMark;
  /** The latest mark of the count of starts. */
  newer: PaceMark;
}

/** Keeps one hub key's pace: in a client's memory, or shared (a `BudgetStore`). */
export interface HubBudget {
  /**
   * Runs a step on the pace, atomically, its times on the local clock, and returns what the step
   * returned. A shared keeper moves the pace from its own clock and back, and may run a step again
   * (another process changed the pace meanwhile): a step changes only the pace it is given.
   */
  update<T>(step: (pace: Pace) => T): T | Promise<T>;
}

/** A pace where nothing is known yet. */
export const newPace = (): Pace => ({ pausedUntil: 0, lastStart: 0, started: 0, older: [0, 0], newer: [0, 0] });

/** A pace kept in this process: a client's own, unless it is given a shared one. */
export function memoryBudget(): HubBudget {
  const pace = newPace();
  return { update: (step) => step(pace) };
}

/** After a throttle that says nothing: the share of the refused rate kept, and the cubic's scale (AWS SDK v3's adaptive retry mode: CUBIC). */
const BETA = 0.7;
const SCALE = 0.4;
const MIN_RATE = 0.5;

/**
 * Attempts per second the adapted rate allows now: unlimited until the hub throttles without
 * saying how; then `BETA` of the refused rate, back to it after `k` seconds, faster beyond (CUBIC).
 */
function rate(pace: Pace, now: number): number {
  if (!pace.throttled) return Infinity;
  const { rate: refused, at } = pace.throttled;
  const k = Math.cbrt((refused * (1 - BETA)) / SCALE);
  return Math.max(MIN_RATE, refused + SCALE * ((now - at) / 1000 - k) ** 3);
}

/**
 * The start the hub's pace allows an attempt that could start `now`: after a pause it asked for,
 * after its window when nothing is left, spaced by the adapted rate. Taken (counted, the allowance
 * spent) only when it is at most `maxWaitMs` away. Returns the start and the count of attempts
 * started with this one.
 */
export function turn(pace: Pace, now: number, maxWaitMs: number): [start: number, started: number] {
  // An unlimited rate spaces by 1000 / Infinity: 0.
  let start = Math.max(now, pace.pausedUntil, pace.lastStart + 1000 / rate(pace, now));
  let { allowance } = pace;
  if (allowance && start < allowance.until && allowance.left <= 0) start = allowance.until;
  // At a reset, as many starts as a window holds, not every call that waited for it; the window
  // assumed a second long, from this start.
  if (allowance && start >= allowance.until) allowance = { ...allowance, left: allowance.size, until: start + 1000, from: pace.started };
  if (start - now > maxWaitMs) return [start, pace.started];
  // Here a start is always within the allowance's window.
  if (allowance) allowance.left--;
  pace.allowance = allowance;
  pace.lastStart = start;
  if (start - pace.newer[0] >= 1_000) [pace.older, pace.newer] = [pace.newer[0] ? pace.newer : [start, pace.started], [start, pace.started]];
  return [start, ++pace.started];
}

/**
 * What an answer says of the hub's limit, for the attempts to come. Returns when the hub lets the
 * next request in, if it said, and the end of a pause it began or made longer.
 */
export function learn(pace: Pace, fields: RateLimitFields, status: number, startedAs: number, now: number): [waitUntil: number | undefined, paused: number | undefined] {
  const { remaining, resetAt: until } = fields;
  if (remaining !== undefined && until !== undefined) {
    // Attempts started after this one were not counted by the server when it answered; answers
    // come back out of order, so within one window the lowest estimate and the earliest reset hold.
    const left = remaining - (pace.started - startedAs);
    const last = pace.allowance;
    const size = Math.max(remaining + 1, last?.size ?? 0);
    // An answer to an attempt started before an assumed window says nothing of it; the first one
    // started in it replaces the assumption.
    if (!(startedAs <= last?.from!)) pace.allowance = last && last.from === undefined && Math.abs(last.until - until) < 1000 ? { left: Math.min(left, last.left), until: Math.min(until, last.until), size } : { left, until, size };
  }
  // Nothing left: the window's earliest reset (the allowance's), nearer than this answer's own.
  const waitUntil = fields.retryAt ?? (remaining === 0 ? pace.allowance?.until : undefined);
  let paused: number | undefined;
  if ((status === 429 || status === 503) && waitUntil !== undefined) {
    if (waitUntil > Math.max(pace.pausedUntil, now)) paused = pace.pausedUntil = waitUntil;
  } else if (status === 429 && remaining === undefined && startedAs > (pace.throttled?.started ?? 0)) {
    // A throttle that says nothing, of an attempt given its turn after the last decrease (one
    // queued before it says nothing of the new rate): the rate it refused, less (CUBIC's
    // multiplicative decrease). The rate refused: the starts since the older mark, over the time
    // they span (at least 100 ms: a client that just began).
    const [at, started] = pace.older;
    const measured = ((pace.started - started) * 1000) / Math.max(100, now - at);
    pace.throttled = { rate: Math.max(MIN_RATE, Math.min(rate(pace, now), measured)), at: now, started: pace.started };
  }
  return [waitUntil, paused];
}
