// @ts-nocheck
import { describe, expect, it } from "vitest";
import { HubPromise } from "../../src/client/hub-client";

const result = (data: number) => ({ data, response: new Response(String(data)), requestId: `req-${data}`, attempts: 1 });

describe("HubPromise", () => {
  it("resolves with the data; withResponse() with data, response and request id", async () => {
    const call = new HubPromise((async () => result(7))());
    expect(await call).toBe(7);
    expect(await call.withResponse()).toMatchObject({ data: 7, requestId: "req-7" });
  });

  it("a call that fails rejects both ways", async () => {
    const call = new HubPromise((async (): Promise<ReturnType<typeof result>> => {
      throw new Error("at once");
    })());
    await expect(call).rejects.toThrow("at once");
    await expect(call.withResponse()).rejects.toThrow("at once");
  });

  it("then, catch and finally give plain promises", async () => {
    const call = new HubPromise((async () => result(1))());
    for (const chained of [call.then((x) => x), call.catch(() => 0), call.finally(() => undefined)]) {
      expect(chained).not.toBeInstanceOf(HubPromise);
      expect(chained).toBeInstanceOf(Promise);
    }
    expect(HubPromise[Symbol.species]).toBe(Promise);
  });
});
