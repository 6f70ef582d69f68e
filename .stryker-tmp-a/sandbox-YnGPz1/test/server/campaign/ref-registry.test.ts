// @ts-nocheck
import { describe, expect, it } from "vitest";
import { awardHash, canonicalJson, refHash } from "../../../src/server/campaign/award-hash";
import { RefRegistry } from "../../../src/server/campaign/ref-registry";

describe("RefRegistry", () => {
  it("tells new, identical repeat and conflict apart, and where the first use came from", () => {
    const registry = new RefRegistry();
    const a = awardHash({ wallet: "0x1", amount: 1, ref: "r1" });
    const b = awardHash({ wallet: "0x1", amount: 2, ref: "r1" });
    registry.remember("done", a);
    expect(registry.claim("r1", a)).toEqual({ kind: "new" });
    expect(registry.claim("r1", a)).toEqual({ kind: "duplicate", from: "run" });
    expect(registry.claim("r1", b)).toEqual({ kind: "conflict", from: "run" });
    expect(registry.claim("done", a)).toEqual({ kind: "duplicate", from: "journal" });
    expect(registry.claim("done", b)).toEqual({ kind: "conflict", from: "journal" });
    expect(registry.size).toBe(2);
  });

  // The same checks at two sizes: 5k refs grow the table three times (fast enough for every
  // mutant of a mutation run); 200k refs show the memory bound at scale, and take several seconds
  // under Stryker's instrumentation, so mutation runs (HUB_MUTATION_RUN, vitest.mutation.config.ts)
  // leave that size out.
  const holds = (count: number) => () => {
    const registry = new RefRegistry();
    const hash = (i: number) => awardHash({ wallet: `0x${i}`, amount: i + 1 });
    let fresh = 0;
    for (let i = 0; i < count; i++) fresh += registry.claim(`season-7:0x${i.toString(16)}`, hash(i)).kind === "new" ? 1 : 0;
    expect(fresh).toBe(count);
    expect(registry.size).toBe(count);
    expect(registry.bytes / count).toBeLessThanOrEqual(32);
    let repeats = 0;
    for (let i = 0; i < count; i += 7) repeats += registry.claim(`season-7:0x${i.toString(16)}`, hash(i)).kind === "duplicate" ? 1 : 0;
    expect(repeats).toBe(Math.ceil(count / 7));
  };
  it("holds 5k refs at ≤ 32 bytes each, with no false repeat among them", holds(5_000));
  it.skipIf(process.env.HUB_MUTATION_RUN)("holds 200k refs at ≤ 32 bytes each, with no false repeat among them", holds(200_000));

  it("the award fingerprint ignores key order, not values", () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, undefined] }, u: undefined })).toBe('{"a":{"c":[3,null],"d":2},"b":1}');
    const sample = { wallet: "0x\u00e9\"", amount: 1.5e-7, reason: "line\nbreak", ref: "r" };
    expect(JSON.parse(canonicalJson(sample))).toEqual(sample);
    expect(awardHash({ ref: "r", wallet: "w", amount: 1 })).toBe(awardHash({ amount: 1, wallet: "w", ref: "r" }));
    expect(awardHash({ ref: "r", wallet: "w", amount: 1 })).not.toBe(awardHash({ ref: "r", wallet: "w", amount: 10 }));
  });

  it("two refs whose hashes share a word are still two refs", () => {
    // Found by search: the same high word (so the same first slot), different low words.
    const [a, b] = ["r85583", "r116847"];
    expect(refHash(a)[0]).toBe(refHash(b)[0]);
    expect(refHash(a)[1]).not.toBe(refHash(b)[1]);
    const registry = new RefRegistry();
    const hash = awardHash({ wallet: "w", amount: 1 });
    expect(registry.claim(a, hash)).toEqual({ kind: "new" });
    expect(registry.claim(b, hash)).toEqual({ kind: "new" });
    expect(registry.claim(b, hash)).toEqual({ kind: "duplicate", from: "run" });
    expect(registry.size).toBe(2);
  });
});

describe("RefRegistry tells apart refs whose hashes nearly collide", () => {
  it("two refs with the same low hash word and the same first slot are two refs, not a conflict", () => {
    // Found by search: cyrb53 gives these the same low word, and high words equal modulo 1024.
    const [a, b] = ["r4131358", "r4401151"];
    expect(refHash(a)[1]).toBe(refHash(b)[1]);
    expect(refHash(a)[0] % 1024).toBe(refHash(b)[0] % 1024);
    const registry = new RefRegistry();
    expect(registry.claim(a, "h1")).toEqual({ kind: "new" });
    expect(registry.claim(b, "h2")).toEqual({ kind: "new" });
    expect(registry.claim(a, "h1")).toEqual({ kind: "duplicate", from: "run" });
    expect(registry.size).toBe(2);
  });
});
