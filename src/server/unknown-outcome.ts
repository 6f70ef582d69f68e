/**
 * What a failed write that may have been applied says and logs. Only writes may have been applied,
 * and only the server client writes: this lives in the server entry, off the browser bundle (a
 * `HubClient`'s reads never carry the verdict).
 */
import type { HubError } from "../core/errors/hub-error";
import type { Log } from "../core/log";
import type { Call } from "../core/http/call";

/** What an error of a write that may have been applied adds to the end of its message. */
export const MAY_HAVE_BEEN_APPLIED = " It may have been applied: retrying with the same ref is safe.";

/** Adds the note to an error of a write that may have been applied (any of its errors: the transport's, or an unusable 2xx body). */
export function noteMayHaveBeenApplied(error: unknown): unknown {
  if ((error as HubError | undefined)?.mayHaveBeenApplied === true) (error as Error).message += MAY_HAVE_BEEN_APPLIED;
  return error;
}

/** The transport's hook for a call that failed after it may have been applied: an error to report, unless the caller chose it by aborting. */
export const logUnknownOutcome = (log: Log) => (error: Error, call: Call) =>
  log(call.spec.signal?.aborted ? "info" : "error", "outcome-unknown", () => ({ call: call.what, error: error.name }));
