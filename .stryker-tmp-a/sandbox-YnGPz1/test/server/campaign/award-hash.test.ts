// @ts-nocheck
import { describe, expect, it } from "vitest";
import { awardHash, canonicalJson, refHash } from "../../../src/server/campaign/award-hash";

describe("award fingerprints", () => {
  it("refHash is cyrb53's two lanes (the published value for \"a\" is 7929297801672961)", () => {
    const [high, low] = refHash("a");
    expect(4294967296 * (high & 0x1fffff) + low).toBe(7929297801672961);
    expect(refHash("a")).toEqual([1344023463, 2194241793]);
  });

  it("refHash values are fixed (journals and registries of earlier runs depend on them); the low word is odd", () => {
    expect(refHash("")).toEqual([1217125560, 451841411]);
    expect(refHash("r1")).toEqual([1357552025, 3311570683]);
    expect(refHash("quest-42:0xabc")).toEqual([1442302037, 855109981]);
    expect(refHash("é☕")).toEqual([361704519, 3649311559]);
    for (const ref of ["", "b", "r2", "x".repeat(100)]) expect(refHash(ref)[1] % 2).toBe(1);
  });

  it("awardHash values are fixed, and ignore key order", () => {
    expect(awardHash({ wallet: "0xabc", amount: 10, ref: "r1" })).toBe("hmtuhx32de");
    expect(awardHash({ ref: "r1", amount: 10, wallet: "0xabc" })).toBe("hmtuhx32de");
    expect(awardHash({ wallet: "w", kind: "daily-login", ref: "k" })).toBe("7d0xr2tof8");
    expect(awardHash({ s: "é☕" })).toBe("24p8bsoircx");
  });

  it("awardHash tells apart awards that differ in one value", () => {
    const base = { wallet: "0xabc", amount: 10, ref: "r1" };
    const hashes = new Set([base, { ...base, amount: 11 }, { ...base, wallet: "0xabd" }, { ...base, reason: "q" }].map((award) => awardHash(award)));
    expect(hashes.size).toBe(4);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1], c: null } })).toBe('{"a":{"c":null,"d":[3,1]},"b":1}');
  });

  it("leaves out what JSON leaves out: undefined, functions, symbols", () => {
    expect(canonicalJson({ a: undefined, b: () => 1, c: Symbol("s"), d: "kept" })).toBe('{"d":"kept"}');
    expect(canonicalJson({ a: undefined })).toBe("{}");
  });

  it("uses toJSON, as JSON.stringify does", () => {
    expect(canonicalJson({ at: new Date("2026-11-22T10:00:00Z") })).toBe('{"at":"2026-11-22T10:00:00.000Z"}');
    expect(canonicalJson({ x: { toJSON: () => ({ z: 1, y: 2 }) } })).toBe('{"x":{"y":2,"z":1}}');
  });

  it("writes primitives like JSON, and undefined as null", () => {
    expect(canonicalJson("a\"b")).toBe('"a\\"b"');
    expect(canonicalJson(1.5)).toBe("1.5");
    expect(canonicalJson(null)).toBe("null");
    expect(canonicalJson(undefined)).toBe("null");
    expect(canonicalJson([undefined, 1])).toBe("[null,1]");
    expect(canonicalJson({ "k\"": true })).toBe('{"k\\"":true}');
  });
});
