import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { HubErrorFormat } from "public-hub-sdk";
import { errorFields } from "../../src/core/answer";
import { award, get, mocksOn } from "../helpers/mock-fetch";

// Every error format the mock writes, read back by the SDK's one reader of error bodies: what the
// mock means to say (its code, message and bad fields) is what errorFields finds, or the format
// has no place for it (a NestJS body has no code, a text page no fields).
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const mockWith = mocksOn(server, "formats");
const AMOUNT = "must be a finite number greater than 0";
const KEY = { message: "Unknown API key.", issues: [] };
const AWARD = { message: `amount ${AMOUNT}`, issues: [] };
const DUPLICATE = { code: "duplicate_ref", message: "ref r-1 already exists: the award was applied once.", issues: [] };
const amountIssue = (code: string, message = AMOUNT) => [{ path: ["amount"], message, code }];

/** Per format: what errorFields reads of an unknown key (401), of a bad amount (its status), and of a duplicate signal declaring `duplicate_ref`. */
const READ: Record<HubErrorFormat, { key: object; field: [number, object]; duplicate: object }> = {
  nested: { key: { ...KEY, code: "invalid_api_key" }, field: [400, { ...AWARD, code: "invalid_award" }], duplicate: DUPLICATE },
  flat: { key: { ...KEY, code: "invalid_api_key" }, field: [400, { ...AWARD, code: "invalid_award" }], duplicate: DUPLICATE },
  "error-string": { key: { ...KEY, code: "invalid_api_key" }, field: [400, { ...AWARD, code: "invalid_award" }], duplicate: DUPLICATE },
  // about:blank names no error: no code, but a declared one goes beside as an extension member.
  problem: { key: KEY, field: [400, AWARD], duplicate: DUPLICATE },
  "problem+json": {
    key: { ...KEY, code: "https://problem-json.example.com/problems/invalid-api-key" },
    field: [400, { ...AWARD, code: "https://problem-json.example.com/problems/invalid-award", issues: amountIssue("invalid") }],
    duplicate: DUPLICATE,
  },
  "error-object": { key: { ...KEY, code: "invalid_api_key" }, field: [400, { ...AWARD, code: "invalid_award", issues: amountIssue("invalid_award", `amount ${AMOUNT}`) }], duplicate: DUPLICATE },
  "errors-array": { key: { ...KEY, code: "invalid_api_key" }, field: [400, { code: "invalid_award", issues: amountIssue("invalid_award") }], duplicate: DUPLICATE },
  graphql: { key: { ...KEY, code: "invalid_api_key" }, field: [400, { ...AWARD, code: "invalid_award" }], duplicate: DUPLICATE },
  // NestJS has no code: the class-validator messages are read as the message.
  nestjs: { key: KEY, field: [400, AWARD], duplicate: DUPLICATE },
  fastify: { key: { ...KEY, code: "invalid_api_key" }, field: [400, { code: "FST_ERR_VALIDATION", message: `body/amount ${AMOUNT}`, issues: [] }], duplicate: DUPLICATE },
  // FastAPI's 422 lists the fields with pydantic's type: the first one's type is read as the code.
  fastapi: { key: KEY, field: [422, { code: "value_error", issues: amountIssue("value_error") }], duplicate: DUPLICATE },
  text: { key: { issues: [] }, field: [400, { issues: [] }], duplicate: { issues: [] } },
  html: { key: { issues: [] }, field: [400, { issues: [] }], duplicate: { issues: [] } },
};

const read = async (response: Response) => {
  const text = await response.text();
  return { status: response.status, fields: errorFields(response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text) };
};

describe("every error format round-trips through errorFields", () => {
  it.each(Object.entries(READ))("%s: the code, message and bad fields the mock meant", async (errorFormat, expected) => {
    // On its own origin, which problem+json types name.
    const baseUrl = `https://${errorFormat.replace(/\W/g, "-")}.example.com/api/v1`;
    const mock = mockWith({ baseUrl, profile: { version: 1, errors: errorFormat as HubErrorFormat, award: { duplicate: { status: 409, code: "duplicate_ref" } } } });
    expect(await read(await get(mock, "/hub/alpha", "pk_nobody"))).toEqual({ status: 401, fields: expected.key });
    expect(await read(await award(mock, { amount: 0 }))).toEqual({ status: expected.field[0], fields: expected.field[1] });
    await award(mock, {});
    expect(await read(await award(mock, {}))).toEqual({ status: 409, fields: expected.duplicate });
  });
});

describe("the new formats as sent", () => {
  it("nestjs: the status's phrase, class-validator's list of field messages, a declared code beside", async () => {
    const mock = mockWith({ errorFormat: "nestjs", profile: { version: 1, award: { duplicate: { status: 409, code: "duplicate_ref" } } } });
    expect(await (await award(mock, { amount: 0, wallet: "" })).json()).toEqual({ statusCode: 400, message: ["wallet must be a non-empty string", `amount ${AMOUNT}`], error: "Bad Request" });
    await award(mock, {});
    expect(await (await award(mock, {})).json()).toEqual({ statusCode: 409, message: "ref r-1 already exists: the award was applied once.", error: "Conflict", code: "duplicate_ref" });
  });

  it("fastify: its default serializer's fields, FST_ERR_VALIDATION naming where each bad field was sent", async () => {
    const mock = mockWith({ errorFormat: "fastify" });
    expect(await (await get(mock, "/hub/beta")).json()).toEqual({ statusCode: 403, code: "forbidden", error: "Forbidden", message: "This API key is scoped to another hub." });
    expect(await (await get(mock, "/hub/alpha/stake-status")).json()).toEqual({ statusCode: 400, code: "FST_ERR_VALIDATION", error: "Bad Request", message: "querystring/wallet is required" });
  });

  it("fastapi: a plain detail; a 422 listing each bad field with its location and the value sent", async () => {
    const mock = mockWith({ errorFormat: "fastapi" });
    expect(await (await get(mock, "/hub/nowhere")).json()).toEqual({ detail: 'No hub "nowhere".' });
    expect(await (await award(mock, { amount: -3 })).json()).toEqual({ detail: [{ type: "value_error", loc: ["body", "amount"], msg: AMOUNT, input: -3 }] });
  });

  it("graphql: one entry with its code under extensions", async () => {
    const mock = mockWith({ errorFormat: "graphql" });
    expect(await (await get(mock, "/hub/alpha", "pk_nobody")).json()).toEqual({ errors: [{ message: "Unknown API key.", extensions: { code: "invalid_api_key" } }] });
  });

  it("problem+json: a declared code that is a URI is the problem's type, not a second code", async () => {
    const type = "https://hub.example.org/problems/already-credited";
    const mock = mockWith({ profile: { version: 1, errors: "problem+json", award: { duplicate: { status: 409, code: type } } } });
    await award(mock, {});
    expect(await (await award(mock, {})).json()).toEqual({ type, title: "Conflict", status: 409, detail: "ref r-1 already exists: the award was applied once." });
  });
});
