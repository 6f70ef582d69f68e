// @ts-nocheck
import { describe, expect, it } from "vitest";
import { knownSize, pullFrom } from "../../../src/server/campaign/award-source";

const award = (i: number) => ({ wallet: `w${i}`, amount: 1, ref: `r${i}` });

/** A generator that records whether its `finally` ran. */
function tracked(count: number) {
  const state = { closed: 0 };
  function* items() {
    try {
      for (let i = 0; i < count; i++) yield award(i);
    } finally {
      state.closed++;
    }
  }
  return { state, items };
}

describe("pullFrom a sync iterable", () => {
  it("answers each item at once, then done for good", () => {
    const pull = pullFrom([award(0), award(1)]);
    expect(pull.next()).toEqual({ done: false, value: award(0) });
    expect(pull.next()).toEqual({ done: false, value: award(1) });
    expect(pull.next()).toMatchObject({ done: true });
    expect(pull.next()).toEqual({ done: true, value: undefined });
  });

  it("close() lets a generator stopped early run its finally, once; after the end it has nothing to do", async () => {
    const early = tracked(5);
    const pull = pullFrom(early.items());
    pull.next();
    await pull.close();
    await pull.close();
    expect(early.state.closed).toBe(1);
    expect(pull.next()).toEqual({ done: true, value: undefined });

    const whole = tracked(1);
    const all = pullFrom(whole.items());
    all.next();
    all.next();
    expect(whole.state.closed).toBe(1);
    await all.close();
    expect(whole.state.closed).toBe(1);
  });
});

describe("pullFrom an async iterable", () => {
  async function* asyncItems(count: number, state: { closed: number; active: number; most: number }) {
    try {
      for (let i = 0; i < count; i++) {
        state.active++;
        state.most = Math.max(state.most, state.active);
        await new Promise((resolve) => setTimeout(resolve, 1));
        state.active--;
        yield award(i);
      }
    } finally {
      state.closed++;
    }
  }

  it("asks one item at a time, in order, even when called at once", async () => {
    const state = { closed: 0, active: 0, most: 0 };
    const pull = pullFrom(asyncItems(3, state));
    const results = await Promise.all([pull.next(), pull.next(), pull.next(), pull.next(), pull.next()]);
    expect(results.map((r) => (r.done ? "done" : r.value.ref))).toEqual(["r0", "r1", "r2", "done", "done"]);
    expect(state.most).toBe(1);
    expect(await pull.next()).toEqual({ done: true, value: undefined });
  });

  it("a failing item rejects that call only; the next one goes on", async () => {
    let calls = 0;
    const failing: AsyncIterable<ReturnType<typeof award>> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          calls++;
          if (calls === 1) throw new Error("bad line");
          return calls <= 2 ? { done: false, value: award(calls) } : { done: true, value: undefined };
        },
      }),
    };
    const pull = pullFrom(failing);
    const first = pull.next();
    const second = pull.next();
    await expect(first).rejects.toThrow("bad line");
    await expect(second).resolves.toEqual({ done: false, value: award(2) });
  });

  it("close() waits for the item being read, then closes the generator once", async () => {
    const state = { closed: 0, active: 0, most: 0 };
    const pull = pullFrom(asyncItems(5, state));
    const reading = pull.next();
    await pull.close();
    expect(state.active).toBe(0);
    expect(state.closed).toBe(1);
    await expect(reading).resolves.toMatchObject({ done: false });
    await pull.close();
    expect(state.closed).toBe(1);
    expect(await pull.next()).toEqual({ done: true, value: undefined });
  });
});

describe("knownSize", () => {
  it("is the length of an array or the size of a Set, else unknown", () => {
    expect(knownSize([award(0), award(1)])).toBe(2);
    expect(knownSize(new Set([award(0)]))).toBe(1);
    expect(knownSize(tracked(3).items())).toBeUndefined();
    expect(knownSize({ size: "3", [Symbol.iterator]: () => [][Symbol.iterator]() } as never)).toBeUndefined();
  });
});

describe("pullFrom never asks a finished iterator again", () => {
  /** An iterator (sync or async) counting calls, with or without a `return` method. */
  function counted(count: number, withReturn: boolean) {
    const calls = { next: 0, return: 0 };
    let i = 0;
    const step = () => {
      calls.next++;
      return i < count ? { done: false as const, value: award(i++) } : { done: true as const, value: undefined };
    };
    const stop = () => {
      calls.return++;
      return { done: true as const, value: undefined };
    };
    const sync = { [Symbol.iterator]: () => ({ next: step, ...(withReturn && { return: stop }) }) };
    const async = { [Symbol.asyncIterator]: () => ({ next: async () => step(), ...(withReturn && { return: async () => stop() }) }) };
    return { calls, sync, async };
  }

  for (const kind of ["sync", "async"] as const) {
    it(`${kind}: after done, next() answers done without calling the iterator, and close() does not call return`, async () => {
      const source = counted(1, true);
      const pull = pullFrom(source[kind]);
      expect(await pull.next()).toEqual({ done: false, value: award(0) });
      expect(await pull.next()).toMatchObject({ done: true });
      expect(await pull.next()).toEqual({ done: true, value: undefined });
      await pull.close();
      expect(source.calls).toEqual({ next: 2, return: 0 });
    });

    it(`${kind}: close() before the end calls return once, even when called twice; next() is then done`, async () => {
      const source = counted(5, true);
      const pull = pullFrom(source[kind]);
      await pull.next();
      await pull.close();
      await pull.close();
      expect(await pull.next()).toEqual({ done: true, value: undefined });
      expect(source.calls).toEqual({ next: 1, return: 1 });
    });

    it(`${kind}: close() before the end of an iterator without return is fine`, async () => {
      const source = counted(5, false);
      const pull = pullFrom(source[kind]);
      await pull.next();
      await expect(pull.close()).resolves.toBeUndefined();
    });
  }
});
