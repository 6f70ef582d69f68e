/**
 * README: "`awardPoints` resolves for a duplicate however the hub says it: a 2xx whose body says
 * `duplicate` or `replayed`, `Idempotent-Replayed: true`, `208 Already Reported`, or a refusal
 * (400, 409, 422) that says the `ref` is already used — in a code, or in its own words once the
 * award's own values are taken out. A refusal naming another award or different parameters is a
 * conflict, and stays an error; one whose issues name any field but `ref` is never a duplicate."
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HubApiError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { params, timeoutFor } from "./settings";

const BASE = "https://dup.test/api/v1";
const casing = (text: string) => fc.constantFrom(text, text.toUpperCase(), text[0]!.toUpperCase() + text.slice(1));
const ref = fc.stringMatching(/^[a-z0-9:-]{1,12}$/);
// The words a hub may use for "this ref is done", and where it may put them.
const saying = fc.oneof(
  casing("duplicate"),
  fc.constantFrom("already exists", "already used", "already_used", "already-credited", "already applied", "already processed", "replayed"),
);
const duplicateAnswer = fc.oneof(
  fc.record({ status: fc.constantFrom(200, 201), key: fc.constantFrom("duplicate", "replayed", "idempotent_replayed", "idempotentReplayed"), deep: fc.constantFrom(undefined, "data", "meta") }).map(({ status, key, deep }) => {
    const flag = { [key]: true, ok: true };
    return { status, headers: {}, body: deep ? { [deep]: flag } : flag };
  }),
  fc.constantFrom("true", "TRUE", " true ").map((value) => ({ status: 200, headers: { "idempotent-replayed": value }, body: { id: "x" } })),
  fc.constant({ status: 208, headers: {}, body: {} }),
  fc.record({ status: fc.constantFrom(409, 422), words: saying, ref, where: fc.constantFrom("type", "code", "title", "nested") }).map(({ status, words, ref, where }) => {
    const code = words.replace(/\s+/g, "_");
    const body =
      where === "type" ? { type: `https://hub.test/problems/${words.replace(/\s+/g, "-")}`, title: "Conflict", detail: `ref ${ref}` }
      : where === "nested" ? { error: { code, message: `ref ${ref}` } }
      : { [where]: where === "title" ? words : code, message: `ref ${ref}` };
    return { status, headers: where === "type" ? { "content-type": "application/problem+json" } : {}, body };
  }),
);
const conflictAnswer = fc.record({ status: fc.constantFrom(409, 422), words: saying, other: fc.constantFrom("by another award", "with different parameters", "with other parameters", "mismatch") }).map(({ status, words, other }) => ({
  status,
  headers: {},
  body: { code: `ref_${words}_${other}`.replace(/\s+/g, "_"), message: `ref ${words} ${other}` },
}));
// Values of an award holding the words a hub may use, in any case: a ref, a wallet, a reason.
const TRIGGERS = ["duplicate", "already exists", "already used", "already been taken", "replayed", "unique constraint", "different", "another", "mismatch"];
const value = fc.tuple(fc.constantFrom(...TRIGGERS, "quest"), fc.stringMatching(/^[a-z0-9]{0,6}$/), fc.constantFrom("-", "_", ":", " ")).chain(([words, tail, join]) => casing(words.replace(/\s+/g, join)).map((said) => `${said}${join}${tail}`.trim()));
const awardQuoting = fc.record({ ref: value, wallet: fc.constantFrom("0xabc", "0xabc already used"), reason: value });
// A refusal whose words are only the award's own values, and words that say nothing of a ref's use.
const quotingRefusal = fc.record({ status: fc.constantFrom(400, 409, 422), award: awardQuoting, form: fc.constantFrom("json", "text", "issue"), code: fc.constantFrom(undefined, "invalid_amount", "E_REF") }).map(({ status, award, form, code }) => {
  const said = `ref ${award.ref} for ${award.wallet} (${award.reason}) refused`;
  const body = form === "text" ? said : form === "issue" ? { ref: [said] } : { ...(code && { code }), message: said, detail: `${award.ref}: not accepted` };
  return { award, answer: { status, headers: {}, body } };
});
// A refusal that says the ref is used, quoting values that hold none of its words.
const usedRefusal = fc.record({ status: fc.constantFrom(400, 409, 422), ref: ref, form: fc.constantFrom("drf", "text", "nestjs", "fastapi"), phrase: fc.constantFrom("already exists", "has already been taken", "is a duplicate", "violates a unique constraint") }).map(({ status, ref, form, phrase }) => {
  const said = `Award with ref ${ref} ${phrase}`;
  const body = form === "drf" ? { ref: [said] } : form === "text" ? said : form === "nestjs" ? { statusCode: status, error: "Conflict", message: said } : { detail: [{ loc: ["body", "ref"], msg: said, type: "value_error" }] };
  return { award: { wallet: "0xabc", amount: 1, ref }, answer: { status, headers: {}, body } };
});
// A refusal whose issues name another field: never a duplicate, whatever else it says.
const otherField = fc.record({ status: fc.constantFrom(400, 409, 422), field: fc.constantFrom("wallet", "amount", "kind", "reason"), withRef: fc.boolean() }).map(({ status, field, withRef }) => ({
  status,
  headers: {},
  body: { [field]: ["Enter a valid value."], ...(withRef && { ref: ["award with this ref already exists."] }) },
}));

const clientAnswering = (answer: { status: number; headers: Record<string, string>; body: unknown }) =>
  new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, fetch: async () => Response.json(answer.body, { status: answer.status, headers: answer.headers }) });

describe("a duplicate is an outcome, however the hub says it", () => {
  it("any duplicate style resolves with duplicate: true", async () => {
    await fc.assert(
      fc.asyncProperty(duplicateAnswer, async (answer) => {
        const result = await clientAnswering(answer).awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).withResponse();
        expect(result.duplicate).toBe(true);
        expect(result.mayHaveBeenAppliedEarlier).toBe(false);
      }),
      params(100),
    );
  }, timeoutFor(20_000));

  it("any answer naming another award or other parameters is a conflict: an error, never applied", async () => {
    await fc.assert(
      fc.asyncProperty(conflictAnswer, async (answer) => {
        const error = await clientAnswering(answer).awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(HubApiError);
        expect((error as HubApiError).mayHaveBeenApplied).toBe(false);
      }),
      params(100),
    );
  }, timeoutFor(20_000));

  it("any 2xx but 208 whose body flags nothing is applied: it resolves, not a duplicate", async () => {
    const body = fc.oneof(fc.constant(""), fc.constant("OK"), fc.jsonValue().map((value) => JSON.stringify(value)).filter((text) => !/duplicate|replay|already/i.test(text)));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 200, max: 299 }).filter((status) => status !== 208), body, async (status, text) => {
        // A 204 or 205 carries no body (the Response constructor refuses one).
        const sent = status === 204 || status === 205 ? null : text;
        const client = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, fetch: async () => new Response(sent, { status }) });
        const result = await client.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).withResponse();
        expect(result.response.status).toBe(status);
        expect(result.duplicate).toBe(false);
      }),
      params(100),
    );
  }, timeoutFor(20_000));

  it("a refusal whose words are only the award's own values is an error, whatever those values say", async () => {
    await fc.assert(
      fc.asyncProperty(quotingRefusal, async ({ award, answer }) => {
        const error = await clientAnswering(answer).awardPoints({ ...award, amount: 1 }).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(HubApiError);
        expect((error as HubApiError).status).toBe(answer.status);
      }),
      params(100),
    );
  }, timeoutFor(20_000));

  it("a refusal that says the ref is used is a duplicate, in whatever framework's shape and quoting the ref", async () => {
    await fc.assert(
      fc.asyncProperty(usedRefusal, async ({ award, answer }) => {
        const result = await clientAnswering(answer).awardPoints(award).withResponse();
        expect(result).toMatchObject({ duplicate: true, mayHaveBeenAppliedEarlier: false });
      }),
      params(100),
    );
  }, timeoutFor(20_000));

  it("a refusal whose issues name another field is an error, even with a profile that pins its status as a duplicate", async () => {
    await fc.assert(
      fc.asyncProperty(otherField, fc.boolean(), async (answer, pinned) => {
        const client = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", retry: 0, ...(pinned && { profile: { version: 1, award: { duplicate: { status: answer.status } } } }), fetch: async () => Response.json(answer.body, { status: answer.status }) });
        const error = await client.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" }).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(HubApiError);
      }),
      params(100),
    );
  }, timeoutFor(20_000));
});
