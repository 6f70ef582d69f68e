// @ts-nocheck
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient } from "public-hub-sdk";

const client = () => new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", retry: 0, logLevel: "off" });

describe("without a fetch option", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("each attempt uses globalThis.fetch as it is then, not as it was when the client was built", async () => {
    const hub = client();
    const first = vi.fn(async () => Response.json({ name: "first" }));
    vi.stubGlobal("fetch", first);
    expect(await hub.getHub()).toEqual({ name: "first" });
    // Patched again (a second MSW server, an instrumentation installed late): the new one is used.
    const second = vi.fn(async () => Response.json({ name: "second" }));
    vi.stubGlobal("fetch", second);
    expect(await hub.getHub()).toEqual({ name: "second" });
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 1]);
  });

  it("calls it with globalThis as `this`, as browsers require of their fetch", async () => {
    const hub = client();
    let self: unknown;
    vi.stubGlobal("fetch", function (this: unknown) {
      self = this;
      return Promise.resolve(Response.json({}));
    });
    await hub.getHub();
    expect(self).toBe(globalThis);
  });
});
