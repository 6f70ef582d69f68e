import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubValidationError, type HubProfile } from "public-hub-sdk";
import { parseHubProfile } from "public-hub-sdk/server";
import { answerSignals, awardOutcome } from "../../src/core/answer";

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) => ({ status, headers: new Headers(headers), body });
const whole: HubProfile = {
  version: 1,
  envelope: "data",
  requestIdHeader: "x-correlation-id",
  award: { status: 201, duplicate: { status: 200, field: { name: "status", value: "already_processed" } }, conflict: { status: 409, code: "ref_conflict" } },
  errors: "fastify",
  rateLimit: { headers: "x-ratelimit", reset: "epoch-seconds", resetLagSeconds: 1 },
  leaderboard: { rows: "edges.node", pages: "relay" },
  notes: ["the reset's lag was not learned"],
};

describe("parseHubProfile", () => {
  it("keeps a whole profile as written, and the smallest one", () => {
    expect(parseHubProfile(JSON.parse(JSON.stringify(whole)))).toEqual(whole);
    expect(parseHubProfile({ version: 1 })).toEqual({ version: 1 });
  });

  it("refuses an unknown field at its path, a wrong version and a wrong type, all at once", () => {
    const error = (() => {
      try {
        parseHubProfile({ version: 2, envelop: "data", award: { duplicate: { status: "409" } }, rateLimit: { headers: "draft-7" } });
      } catch (caught) {
        return caught as HubValidationError;
      }
    })();
    expect(error).toBeInstanceOf(HubValidationError);
    expect(error!.issues.map((issue) => issue.path.join("."))).toEqual(expect.arrayContaining(["version", "envelop", "award.duplicate", "rateLimit.headers"]));
    expect(error!.issues.find((issue) => issue.path[0] === "envelop")?.message).toBe('unknown field "envelop"');
  });

  it("anything that is not a profile is a HubValidationError, never another error", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        try {
          parseHubProfile(value);
        } catch (error) {
          return error instanceof HubValidationError;
        }
        return (value as { version?: unknown }).version === 1;
      }),
    );
  });
});

describe("answerSignals: the status and each marker the signal names", () => {
  it("a status alone", () => {
    expect(answerSignals({ status: 208 }, answer(208))).toBe(true);
    expect(answerSignals({ status: 208 }, answer(200))).toBe(false);
  });

  it("a code, as errorFields reads it, never from the message", () => {
    const signal = { status: 409, code: "duplicate_ref" };
    expect(answerSignals(signal, answer(409, { error: { code: "duplicate_ref", message: "used" } }))).toBe(true);
    expect(answerSignals(signal, answer(409, { error: { code: "ref_conflict", message: "duplicate_ref" } }))).toBe(false);
    expect(answerSignals(signal, answer(409, "duplicate_ref"))).toBe(false);
  });

  it("a header, its value compared without case or surrounding space", () => {
    const signal = { status: 200, header: { name: "Idempotent-Replayed", value: "true" } };
    expect(answerSignals(signal, answer(200, {}, { "idempotent-replayed": " TRUE " }))).toBe(true);
    expect(answerSignals(signal, answer(200, {}, { "idempotent-replayed": "false" }))).toBe(false);
    expect(answerSignals(signal, answer(200))).toBe(false);
  });

  it("a body field, at the top or one envelope deep, its value exactly", () => {
    const signal = { status: 200, field: { name: "duplicate", value: true } };
    expect(answerSignals(signal, answer(200, { duplicate: true }))).toBe(true);
    expect(answerSignals(signal, answer(200, { data: { duplicate: true } }))).toBe(true);
    expect(answerSignals(signal, answer(200, { data: { inner: { duplicate: true } } }))).toBe(false);
    expect(answerSignals(signal, answer(200, { duplicate: "true" }))).toBe(false);
    expect(answerSignals(signal, answer(200, [{ duplicate: true }]))).toBe(false);
  });
});

describe("awardOutcome with a profile's signals", () => {
  it("without a declared signal, the SDK's rule decides", () => {
    expect(awardOutcome(answer(208), { profile: undefined })).toBe("duplicate");
    expect(awardOutcome(answer(208), { profile: {} })).toBe("duplicate");
  });

  it("a declared signal decides both ways; an indistinguishable hub's repeats are never flagged", () => {
    const profile: HubProfile["award"] = { duplicate: { status: 409, code: "taken" } };
    expect(awardOutcome(answer(409, { code: "taken" }), { profile })).toBe("duplicate");
    expect(awardOutcome(answer(409, { code: "duplicate_ref" }), { profile })).toBe("conflict");
    expect(awardOutcome(answer(400, { code: "duplicate_ref" }), { profile })).toBe("refused");
    expect(awardOutcome(answer(200, { duplicate: true }), { profile: { duplicate: "indistinguishable" } })).toBe("applied");
  });

  it("a declared conflict is a conflict whatever the words; an answer naming another field is refused whatever is declared", () => {
    const profile: HubProfile["award"] = { duplicate: { status: 400 }, conflict: { status: 400, code: "ref_reused" } };
    expect(awardOutcome(answer(400, { code: "ref_reused", message: "ref already exists" }), { profile })).toBe("conflict");
    expect(awardOutcome(answer(400, { ref: ["award with this ref already exists."] }), { profile })).toBe("duplicate");
    expect(awardOutcome(answer(400, { amount: ["A valid integer is required."] }), { profile })).toBe("refused");
    expect(awardOutcome(answer(400, { wallet: ["Enter a valid value."], ref: ["award with this ref already exists."] }), { profile, duplicate: true })).toBe("refused");
  });
});

describe("parseHubProfile: every value of every choice", () => {
  const choices = {
    errors: ["nested", "flat", "error-string", "problem", "problem+json", "error-object", "errors-array", "graphql", "nestjs", "fastify", "fastapi", "text", "html"],
    headers: ["none", "ietf", "ietf-draft7", "ietf-legacy", "x-ratelimit"],
    reset: ["seconds", "epoch-seconds", "epoch-ms"],
    pages: ["none", "relay", "cursor", "page", "link"],
  } as const;

  it("accepts each, and refuses a value next to it", () => {
    for (const errors of choices.errors) expect(parseHubProfile({ version: 1, errors }).errors).toBe(errors);
    for (const headers of choices.headers) expect(parseHubProfile({ version: 1, rateLimit: { headers } }).rateLimit).toEqual({ headers });
    for (const reset of choices.reset) expect(parseHubProfile({ version: 1, rateLimit: { headers: "ietf", reset } }).rateLimit?.reset).toBe(reset);
    for (const pages of choices.pages) expect(parseHubProfile({ version: 1, leaderboard: { rows: "", pages } }).leaderboard?.pages).toBe(pages);
    for (const bad of [{ errors: "" }, { rateLimit: { headers: "" } }, { rateLimit: { headers: "ietf", reset: "" } }, { leaderboard: { rows: "", pages: "" } }]) expect(() => parseHubProfile({ version: 1, ...bad })).toThrow(HubValidationError);
  });

  it("each field's bounds: a status of 100–599, a named header and field, a lag of 0–3600 s, notes of text, requestIdHeader null", () => {
    const signal = { status: 409, code: "taken", header: { name: "x-dup", value: "1" }, field: { name: "state", value: false } };
    const kept = { version: 1, requestIdHeader: null, award: { status: 202, duplicate: signal, conflict: { status: 599 } }, rateLimit: { headers: "x-ratelimit", resetLagSeconds: 3600 }, notes: ["n"] } as const;
    expect(parseHubProfile(kept)).toEqual(kept);
    const refused = [
      { award: { status: 99 } },
      { award: { status: 600 } },
      { award: { status: 200.5 } },
      { award: { duplicate: { status: 409, code: "" } } },
      { award: { duplicate: { status: 409, header: { name: "", value: "1" } } } },
      { award: { duplicate: { status: 409, field: { name: "state", value: 1 } } } },
      { award: { conflict: { status: 409, extra: 1 } } },
      { envelope: "" },
      { requestIdHeader: "" },
      { rateLimit: { headers: "ietf", resetLagSeconds: 3601 } },
      { rateLimit: { headers: "ietf", resetLagSeconds: -1 } },
      { leaderboard: { pages: "none" } },
      { notes: [1] },
    ];
    for (const bad of refused) expect(() => parseHubProfile({ version: 1, ...bad }), JSON.stringify(bad)).toThrow(HubValidationError);
  });

  it("its error names the hub profile", () => {
    expect(() => parseHubProfile({ version: 1, envelope: 5 })).toThrow(/hub profile/);
  });
});

describe("answerSignals: the edges", () => {
  it("a signal without a code matches whatever code the body holds", () => {
    expect(answerSignals({ status: 409 }, answer(409, { code: "anything" }))).toBe(true);
  });

  it("a body field beside a null or a text value is still found; a text holds no field", () => {
    expect(answerSignals({ status: 200, field: { name: "duplicate", value: true } }, answer(200, { data: null, note: "x", duplicate: true }))).toBe(true);
    expect(answerSignals({ status: 200, field: { name: "length", value: 4 as unknown as string } }, answer(200, { note: "abcd" }))).toBe(false);
  });

  it("a profile without an award section declares nothing: the SDK's rule decides", () => {
    const profile: HubProfile = { version: 1 };
    expect(awardOutcome(answer(208), { profile: profile.award })).toBe("duplicate");
  });
});
