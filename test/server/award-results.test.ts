// What an award gives back: withResponse()'s envelope and keys, an error's attempts and signing
// diagnostics across a clock re-send, a throw of the caller's own reaching the caller; and awardMany's
// own call as a telemetry sees it.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { defineTelemetry, HubSchemaError, ServerError, UnauthorizedError, type HubCallContext } from "public-hub-sdk";
import { caught } from "../helpers/caught";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock } = useHubMock();
const WALLET = "0x2222222222222222222222222222222222222222";
const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("what an award gives back", () => {
  const award = (ref: string) => ({ wallet: WALLET, amount: 5, ref });

  it("with unwrap, withResponse() carries the whole body as envelope; without it, no envelope key", async () => {
    const withEnvelope = await serverClient(mock.baseUrl, { unwrap: "data" }).awardPoints(award("e-1")).withResponse();
    expect(withEnvelope.envelope).toEqual(withEnvelope.data);
    expect(withEnvelope.envelope).toMatchObject({ duplicate: false });
    const plain = await serverClient(mock.baseUrl).awardPoints(award("e-2")).withResponse();
    expect(Object.keys(plain).sort()).toEqual(["attempts", "data", "duplicate", "mayHaveBeenAppliedEarlier", "requestId", "response"]);
  });

  it("a duplicate reader that throws null: the SDK's rule decides, and the warning names null", async () => {
    const lines: string[] = [];
    const logger = { debug: () => {}, info: () => {}, warn: (line: string) => void lines.push(line), error: () => {} };
    const duplicate = () => {
      throw null;
    };
    const result = await serverClient(mock.baseUrl, { duplicate, logger, logLevel: "warn" }).awardPoints(award("e-3")).withResponse();
    expect(result.duplicate).toBe(false);
    expect(lines).toEqual(["[public-hub] observer-failed option=duplicate error=null"]);
  });

  it("a null thrown while reading the answer (a schema's validate) reaches the caller as null", async () => {
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => {
      throw null;
    } } };
    const error = await serverClient(mock.baseUrl).awardPoints(award("e-4"), { schema: schema as never }).then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(error).toBeNull();
  });

  it("an Error of the caller's own, even one with a refusal's status, reaches the caller untouched: no signing diagnostics", async () => {
    const own = Object.assign(new Error("the schema broke"), { status: 401 });
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => {
      throw own;
    } } };
    const error = await serverClient(mock.baseUrl).awardPoints(award("e-9"), { schema: schema as never }).then(
      () => "resolved",
      (e: unknown) => e,
    );
    expect(error).toBe(own);
    expect(Object.keys(own).sort()).toEqual(["status"]);
    expect(own.message).toBe("the schema broke");
  });

  it("an answer that does not fit the schema: the error has no attempts, and says the award may have been applied", async () => {
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => ({ issues: [{ message: "nope", path: ["x"] }] }) } };
    const error = (await caught(() => serverClient(mock.baseUrl).awardPoints(award("e-5"), { schema: schema as never }))) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(error.attempts).toBeUndefined();
    expect(Object.hasOwn(error, "attempts")).toBe(false);
    expect(Object.hasOwn(error, "signing")).toBe(false);
    expect(error.message.endsWith("; the award WAS applied: do not treat it as failed It may have been applied: retrying with the same ref is safe.")).toBe(true);
  });

  it("re-sent for the clock, then an answer that does not fit: still no attempts on the error", async () => {
    mock.setClockOffset(3_600_000);
    const schema = { "~standard": { version: 1, vendor: "test", validate: () => ({ issues: [{ message: "nope" }] }) } };
    const error = (await caught(() => serverClient(mock.baseUrl).awardPoints(award("e-6"), { schema: schema as never }))) as HubSchemaError;
    expect(error).toBeInstanceOf(HubSchemaError);
    expect(mock.requests).toHaveLength(2);
    expect(Object.hasOwn(error, "attempts")).toBe(false);
  });

  it("re-sent for the clock, then 503s to the end: the attempts add up, no signing diagnostics, and the message says it may have been applied", async () => {
    mock.setClockOffset(3_600_000);
    let calls = 0;
    const fetch: typeof globalThis.fetch = (input, init) => (++calls === 1 ? globalThis.fetch(input, init) : Promise.resolve(new Response("down", { status: 503 })));
    const error = (await caught(() => serverClient(mock.baseUrl, { fetch, retry: { limit: 2, backoff: 1 } }).awardPoints(award("e-7")))) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(calls).toBe(4);
    expect(error.attempts).toBe(4);
    expect(error.mayHaveBeenApplied).toBe(true);
    expect(Object.hasOwn(error, "signing")).toBe(false);
    expect(error.message.endsWith(". It may have been applied: retrying with the same ref is safe.")).toBe(true);
  });

  it("a refused signature's message: the body hash's first 12 characters and the offset in seconds", async () => {
    mock.setClockOffset(20_000);
    const client = serverClient(mock.baseUrl, { secret: "not-the-secret" });
    await client.getHub();
    const error = (await caught(() => client.awardPoints(award("e-8")))) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    const sent = mock.requests.at(-1)!;
    const offset = error.signing!.clockOffsetMs;
    expect(Math.abs(offset - 20_000)).toBeLessThan(1_500);
    expect(error.message).toContain(
      ` a proxy rewrote the path or the body (signed: POST /api/v1/hub/alpha/bits/earn, body sha256 ${sha256(sent.body).slice(0, 12)}…); the clock (timestamp ${sent.headers["x-api-timestamp"]}, offset to the server ${(offset / 1000).toFixed(1)} s). See error.signing.`,
    );
    expect(error.message).toMatch(/offset to the server (19|20|21)\.\d s\)/);
  });
});

describe("awardMany's own call, as a telemetry sees it", () => {
  it("is observed as awardMany, POST, on the award's template and path", async () => {
    const contexts: HubCallContext[] = [];
    const telemetry = defineTelemetry({ name: "test", startCall: (context: Readonly<HubCallContext>) => ({ run: <T>(call: () => Promise<T>) => call(), end: (done: Readonly<HubCallContext>) => void contexts.push({ ...done }) }) });
    await serverClient(mock.baseUrl, { telemetry }).awardMany([{ wallet: WALLET, amount: 1, ref: "m-1" }]);
    const campaign = contexts.find((context) => context.operation === "awardMany");
    expect(campaign).toMatchObject({ operation: "awardMany", method: "POST", urlTemplate: "/hub/{slug}/bits/earn", path: "/hub/alpha/bits/earn", hub: "alpha" });
    expect(contexts.map((context) => context.operation)).toEqual(["awardPoints", "awardMany"]);
  });
});
