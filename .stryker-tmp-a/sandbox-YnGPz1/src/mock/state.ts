// @ts-nocheck
import type { AwardRecord, CannedResponse, LostAnswer, MockHub, MockKey, RecordedRequest } from "./types";
import { storedKeyOf } from "./verify-signature";

type AwardAnswer = Record<string, unknown>;

/** Everything the mock server remembers between requests; `reset()` restores the start. */
export class MockState {
  readonly hubs: Readonly<Record<string, MockHub>>;
  readonly #keys: ReadonlyMap<string, { hub: string; storedKey: Promise<string> }>;
  readonly #initialClockOffset: number;
  #balances = new Map<string, number>();
  #awardsByRef = new Map<string, { answer: AwardAnswer; record: AwardRecord }>();
  #requestCounter = 0;
  #window = { start: 0, used: 0 };
  /** Server clock minus real clock, in milliseconds. */
  clockOffsetMs: number;
  // Set by reset(), which the constructor calls:
  /** Applied awards, oldest first. */
  ledger!: AwardRecord[];
  /** Every request received, oldest first. */
  requests!: RecordedRequest[];
  faults!: { lostWrites: LostAnswer[]; rateLimits: number[]; canned: CannedResponse[]; cachedAges: number[] };

  constructor(hubs: Record<string, MockHub>, keys: Record<string, MockKey>, clockOffsetMs: number) {
    this.hubs = hubs;
    // Like the real server, keep sha256(secret) only; the raw secret is dropped here.
    this.#keys = new Map(Object.entries(keys).map(([id, key]) => [id, { hub: key.hub, storedKey: storedKeyOf(key.secret) }]));
    this.#initialClockOffset = clockOffsetMs;
    this.clockOffsetMs = clockOffsetMs;
    this.reset();
  }

  /** Server time in milliseconds. */
  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  nextRequestId(): string {
    this.#requestCounter += 1;
    return `req_mock_${this.#requestCounter.toString().padStart(6, "0")}`;
  }

  key(clientId: string) {
    return this.#keys.get(clientId);
  }

  balanceOf(hub: string, wallet: string): number {
    return this.#balances.get(balanceKey(hub, wallet)) ?? 0;
  }

  /** This request's place in its fixed one-second window (server time), and when the window ends (ms). */
  countRequest(): { used: number; resetAt: number } {
    const now = this.now();
    const start = now - (now % 1000);
    if (start !== this.#window.start) this.#window = { start, used: 0 };
    return { used: ++this.#window.used, resetAt: start + 1000 };
  }

  /** The earlier answer and award for this ref, if the award was already applied. */
  awardFor(hub: string, ref: string): { answer: AwardAnswer; record: AwardRecord } | undefined {
    return this.#awardsByRef.get(balanceKey(hub, ref));
  }

  /** Applies an award once and remembers the answer under its ref. */
  applyAward(record: Omit<AwardRecord, "at">): AwardAnswer {
    const applied: AwardRecord = { ...record, at: this.now() };
    this.ledger.push(applied);
    const balance = this.balanceOf(record.hub, record.wallet) + record.amount;
    this.#balances.set(balanceKey(record.hub, record.wallet), balance);
    const answer = { ok: true, hub: record.hub, wallet: record.wallet, ref: record.ref, awarded: record.amount, balance };
    this.#awardsByRef.set(balanceKey(record.hub, record.ref), { answer, record: applied });
    return answer;
  }

  reset(): void {
    this.#balances = new Map();
    for (const [slug, hub] of Object.entries(this.hubs)) {
      for (const [wallet, points] of Object.entries(hub.balances ?? {})) this.#balances.set(balanceKey(slug, wallet), points);
    }
    this.#awardsByRef = new Map();
    this.ledger = [];
    this.requests = [];
    this.#requestCounter = 0;
    this.#window = { start: 0, used: 0 };
    this.clockOffsetMs = this.#initialClockOffset;
    this.faults = { lostWrites: [], rateLimits: [], canned: [], cachedAges: [] };
  }
}

// A NUL separator cannot occur in a slug or wallet sent in a URL segment, so keys never collide.
const balanceKey = (hub: string, id: string) => `${hub}\u0000${id}`;
