import { describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient } from "public-hub-sdk";

describe("a caller's abort heard on the call's own signal", () => {
  it("settles a call with timeout: false and a deaf fetch even when the signal ky derives never aborts (collected first)", async () => {
    // As when garbage collection takes AbortSignal.any's dependent signal before the abort.
    const any = vi.spyOn(AbortSignal, "any").mockImplementation(() => new AbortController().signal);
    const controller = new AbortController();
    const deaf = () => new Promise<Response>(() => undefined);
    const client = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", fetch: deaf, timeout: false, retry: 0 });
    const call = client.getHub({ signal: controller.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort(new Error("stop"));
    const settled = await Promise.race([call, new Promise((resolve) => setTimeout(() => resolve("pending"), 1_000))]);
    any.mockRestore();
    expect(settled).toBeInstanceOf(HubAbortError);
  });
});
