/** What a campaign knows of a `ref` it meets again. */
export type RefClaim =
  | { kind: "new" }
  | { kind: "duplicate"; from: "journal" | "run" }
  | { kind: "conflict"; from: "journal" | "run" };

/**
 * Every `ref` of the campaign with its award's fingerprint: those the journal shows as applied, and
 * those met in this run. It is what lets an identical repeat be skipped and a different award under
 * the same `ref` be refused (the server would silently keep the first). It grows with the number of
 * distinct refs, not with awards in flight: one `Map` entry, the ref's string and an 11-character
 * fingerprint, about 150 bytes per ref (see docs/spec-decisions.md, "Campaigns").
 */
export class RefRegistry {
  // The fingerprint, tagged with where it came from: "j" journal, "r" this run.
  readonly #refs = new Map<string, string>();

  /** Adds a ref the journal shows as applied. */
  remember(ref: string, hash: string): void {
    this.#refs.set(ref, `j${hash}`);
  }

  /** Claims a ref for an award of this run: new, a repeat of the same award, or a conflict. */
  claim(ref: string, hash: string): RefClaim {
    const known = this.#refs.get(ref);
    if (known === undefined) {
      this.#refs.set(ref, `r${hash}`);
      return { kind: "new" };
    }
    const from = known.startsWith("j") ? "journal" : "run";
    return known.slice(1) === hash ? { kind: "duplicate", from } : { kind: "conflict", from };
  }

  /** Distinct refs known. */
  get size(): number {
    return this.#refs.size;
  }
}
