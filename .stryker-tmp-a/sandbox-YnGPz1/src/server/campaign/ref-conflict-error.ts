// @ts-nocheck
import { HubError } from "../../core/errors";

/**
 * A campaign met a `ref` already used by a different award: earlier in the same input, or in an
 * earlier run recorded in the journal. The award was not sent, since the server would keep the
 * first award under that `ref` and silently ignore this one.
 * @example
 * ```ts
 * const summary = await server.awardMany(awards);
 * const conflicts = summary.failed.filter((f) => f.error instanceof RefConflictError);
 * ```
 */
export class RefConflictError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "RefConflictError" as const;
  /** The `ref` used twice. */
  readonly ref: string;
  /** Where the first use is: `"run"` (this input) or `"journal"` (an earlier run). */
  readonly firstSeenIn: "run" | "journal";

  constructor(init: { ref: string; firstSeenIn: "run" | "journal" }) {
    const where = init.firstSeenIn === "run" ? "earlier in this campaign" : "by an earlier run (journal)";
    super({ message: `ref "${init.ref}" was already used ${where} for a different award; not sent` });
    this.ref = init.ref;
    this.firstSeenIn = init.firstSeenIn;
  }
}
