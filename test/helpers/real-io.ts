// WebCrypto signs on the runtime's own threads, which fake timers neither run nor wait for: a test
// on fake timers lets real event-loop turns pass for an award to be signed, sent and answered.

/** `count` turns of the real event loop (`setImmediate` is never faked by these tests). */
export async function ioTurns(count = 1): Promise<void> {
  for (let turn = 0; turn < count; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

/** Real event-loop turns until `done()`; throws if it is not within `ms` of real time (`performance` is never faked). */
export async function until(done: () => boolean, ms = 5_000): Promise<void> {
  for (const start = performance.now(); !done(); await ioTurns()) {
    if (performance.now() - start > ms) throw new Error(`not done within ${ms} ms`);
  }
}

type Subtle = typeof crypto.subtle;
const TRACKED = ["digest", "importKey", "sign"] as const;

/**
 * Counts `crypto.subtle` operations in flight, for a fake-timer loop to let them finish before it
 * moves time (else a timeout may fire while an attempt is being signed, which real time never
 * does). `restore()` puts `crypto.subtle` back.
 */
export function trackCrypto(): { idle(): Promise<void>; restore(): void } {
  let inFlight = 0;
  const originals = TRACKED.map((name) => [name, crypto.subtle[name]] as const);
  for (const [name, original] of originals) {
    Object.defineProperty(crypto.subtle, name, {
      configurable: true,
      writable: true,
      value: (...args: unknown[]) => {
        inFlight++;
        return (original as (...a: unknown[]) => Promise<unknown>).apply(crypto.subtle, args).finally(() => inFlight--);
      },
    });
  }
  return {
    idle: () => until(() => inFlight === 0),
    restore: () => {
      for (const [name] of originals) delete (crypto.subtle as Partial<Record<keyof Subtle, unknown>>)[name];
    },
  };
}
