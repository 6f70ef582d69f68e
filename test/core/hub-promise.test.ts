import { describe, expect, it } from "vitest";
import { HubPromise } from "../../src/core/hub-promise";

const result = (data: number) => ({ data, response: new Response(String(data)), requestId: `req-${data}`, attempts: 1 });

describe("HubPromise", () => {
  it("resolves with the data; withResponse() with data, response and request id", async () => {
    const call = HubPromise.run(async () => result(7));
    expect(await call).toBe(7);
    expect(await call.withResponse()).toMatchObject({ data: 7, requestId: "req-7" });
  });

  it("a call that throws synchronously rejects both ways, never throws", async () => {
    const call = HubPromise.run(() => {
      throw new Error("at once");
    });
    await expect(call).rejects.toThrow("at once");
    await expect(call.withResponse()).rejects.toThrow("at once");
  });

  it("run is the one way to make one: the constructor is not public", () => {
    // @ts-expect-error a HubPromise is made with HubPromise.run
    expect(() => new HubPromise(Promise.resolve(result(1)))).not.toThrow();
  });

  it("then, catch and finally give plain promises", async () => {
    const call = HubPromise.run(async () => result(1));
    for (const chained of [call.then((x) => x), call.catch(() => 0), call.finally(() => undefined)]) {
      expect(chained).not.toBeInstanceOf(HubPromise);
      expect(chained).toBeInstanceOf(Promise);
    }
    expect(HubPromise[Symbol.species]).toBe(Promise);
  });
});
