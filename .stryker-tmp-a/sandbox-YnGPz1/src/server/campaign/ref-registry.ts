// @ts-nocheck
import { refHash } from "./award-hash";

/** What a campaign knows of a `ref` it meets again. */
export type RefClaim =
  | { kind: "new" }
  | { kind: "duplicate"; from: "journal" | "run" }
  | { kind: "conflict"; from: "journal" | "run" };

const FROM_JOURNAL = 1;
const FINGERPRINT = 2 ** 31;

/**
 * Every `ref` of the campaign with its award's fingerprint: those the journal shows as applied, and
 * those met in this run. It lets an identical repeat be skipped and a different award under the same
 * `ref` be refused (the server would silently keep the first).
 *
 * It must hold every distinct ref, so it is compact: an open-addressing table in one `Uint32Array`,
 * three words per ref (a 63-bit hash of the ref, and a 31-bit fingerprint of the award plus where it
 * came from), at most 3/4 full: 16 to 32 bytes per ref, where a `Map` of the strings took about 300.
 * A hash stands for the ref, so two different refs could meet by chance: for a million refs, about
 * 1 in 10^8 campaigns would see a false `RefConflictError` (a reported failure, not a silent loss);
 * a false "identical repeat" also needs the 31-bit award fingerprints to match (about 1 in 10^17).
 */
export class RefRegistry {
  #slots = new Uint32Array(3 * 1024); // per slot: ref hash high, ref hash low (odd: 0 marks empty), fingerprint << 1 | origin
  #size = 0;

  /** Adds a ref the journal shows as applied. */
  remember(ref: string, hash: string): void {
    this.#put(ref, hash, FROM_JOURNAL);
  }

  /** Claims a ref for an award of this run: new, a repeat of the same award, or a conflict. */
  claim(ref: string, hash: string): RefClaim {
    const known = this.#put(ref, hash, 0);
    if (known === undefined) return { kind: "new" };
    const from = known % 2 === FROM_JOURNAL ? "journal" : "run";
    return Math.floor(known / 2) === fingerprintOf(hash) ? { kind: "duplicate", from } : { kind: "conflict", from };
  }

  /** Distinct refs known. */
  get size(): number {
    return this.#size;
  }

  /** Bytes held by the table. */
  get bytes(): number {
    return this.#slots.byteLength;
  }

  /** Stores the ref if it is new; otherwise returns what is stored for it, unchanged. */
  #put(ref: string, hash: string, origin: number): number | undefined {
    const [high, low] = refHash(ref);
    const at = this.#find(high, low);
    if (this.#slots[at + 1] !== 0) return this.#slots[at + 2];
    this.#slots[at] = high;
    this.#slots[at + 1] = low;
    this.#slots[at + 2] = fingerprintOf(hash) * 2 + origin;
    this.#size++;
    this.#grow();
    return undefined;
  }

  /** The slot holding this ref hash, or the empty slot where it goes (linear probing). */
  #find(high: number, low: number): number {
    const capacity = this.#slots.length / 3;
    let index = high & (capacity - 1);
    for (;;) {
      const at = index * 3;
      if (this.#slots[at + 1] === 0 || (this.#slots[at + 1] === low && this.#slots[at] === high)) return at;
      // Stryker disable next-line ArithmeticOperator: probing down instead of up finds the same slots, as #grow probes the same way
      index = (index + 1) & (capacity - 1);
    }
  }

  #grow(): void {
    // Stryker disable next-line EqualityOperator: growing at exactly 3/4 full or one ref later only moves the resize by one ref
    if (this.#size * 4 < (this.#slots.length / 3) * 3) return;
    const old = this.#slots;
    this.#slots = new Uint32Array(old.length * 2);
    // Stryker disable next-line EqualityOperator: one step past the end reads an empty subarray, and copies nothing
    for (let at = 0; at < old.length; at += 3) {
      // Stryker disable next-line ConditionalExpression: copying an empty slot writes zeros into an empty slot
      if (old[at + 1] === 0) continue;
      // Stryker disable next-line ArithmeticOperator: the low word only tells refs apart within one probe chain, and the refs being moved are distinct
      const to = this.#find(old[at]!, old[at + 1]!);
      this.#slots.set(old.subarray(at, at + 3), to);
    }
  }
}

function fingerprintOf(hash: string): number {
  return parseInt(hash, 36) % FINGERPRINT;
}
