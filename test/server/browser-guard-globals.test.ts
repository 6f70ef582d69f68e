import { afterEach, describe, expect, it, vi } from "vitest";
import { assertNotBrowser, BrowserNotAllowedError } from "../../src/server/browser-guard";
import { HubServerClient, signRequest } from "../../src/server/index";

// The DOM environment (browser-guard.test.ts) has both globals; here each one alone.
afterEach(() => {
  vi.unstubAllGlobals();
});

const options = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha" };

describe("the browser guard", () => {
  it("passes in Node, where neither window nor document exists", () => {
    expect(() => assertNotBrowser(undefined)).not.toThrow();
    expect(new HubServerClient(options).hub).toBe("alpha");
  });

  it.each(["window", "document"])("refuses where only `%s` exists", async (name) => {
    vi.stubGlobal(name, {});
    expect(() => assertNotBrowser(undefined)).toThrow(BrowserNotAllowedError);
    expect(() => assertNotBrowser(false)).toThrow(BrowserNotAllowedError);
    expect(() => new HubServerClient(options)).toThrow(BrowserNotAllowedError);
    await expect(signRequest({ secret: "s", timestamp: "1", method: "POST", path: "/x", body: "" })).rejects.toBeInstanceOf(BrowserNotAllowedError);
  });

  it("only a literal true opts out", () => {
    vi.stubGlobal("window", {});
    expect(() => assertNotBrowser(true)).not.toThrow();
    expect(() => assertNotBrowser("true" as never)).toThrow(BrowserNotAllowedError);
  });

  it("the error names itself and says where to award from; the server builds offer their option for DOM tests", () => {
    const error = new BrowserNotAllowedError();
    expect(error.name).toBe("BrowserNotAllowedError");
    expect(error.message).toContain("Award points from your backend");
    vi.stubGlobal("window", {});
    expect(() => new HubServerClient(options)).toThrow(/\(For tests in a DOM environment only, pass dangerouslyAllowBrowser: true\.\)$/);
  });
});
