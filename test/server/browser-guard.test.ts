// @vitest-environment happy-dom
import { describe, expect, it } from "vitest";
import * as browserStub from "../../src/server/browser";
import { BrowserNotAllowedError, deriveSigningKey, HubServerClient, signRequest } from "../../src/server/index";

const options = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha_demo", hub: "alpha", secret: "demo-secret-alpha" };
const signInput = { secret: "s", timestamp: "1", method: "POST", path: "/api/v1/hub/x/bits/earn", body: "" };

describe("the server entry in a DOM environment", () => {
  it("has a window and a document here", () => {
    expect(typeof window).toBe("object");
    expect(typeof document).toBe("object");
  });

  it("refuses to construct a client, saying why", () => {
    expect(() => new HubServerClient(options)).toThrow(BrowserNotAllowedError);
    expect(() => new HubServerClient(options)).toThrow(/secret\s+must stay on your server/);
  });

  it("refuses to sign or derive a key", async () => {
    await expect(signRequest(signInput)).rejects.toBeInstanceOf(BrowserNotAllowedError);
    await expect(deriveSigningKey("s")).rejects.toBeInstanceOf(BrowserNotAllowedError);
  });

  it("allows all of it with dangerouslyAllowBrowser: true", async () => {
    expect(new HubServerClient({ ...options, dangerouslyAllowBrowser: true }).hub).toBe("alpha");
    await expect(signRequest({ ...signInput, dangerouslyAllowBrowser: true })).resolves.toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("the browser build of the server entry", () => {
  it("throws the same error from every entry point, even when allowed", async () => {
    // @ts-expect-error the browser build's types refuse construction too
    expect(() => new browserStub.HubServerClient({ ...options, dangerouslyAllowBrowser: true })).toThrow(BrowserNotAllowedError);
    // @ts-expect-error every function's types refuse
    await expect(browserStub.signRequest(signInput)).rejects.toBeInstanceOf(BrowserNotAllowedError);
    // @ts-expect-error
    await expect(browserStub.deriveSigningKey("s")).rejects.toBeInstanceOf(BrowserNotAllowedError);
    // @ts-expect-error
    await expect(browserStub.dryRunAwards([])).rejects.toBeInstanceOf(BrowserNotAllowedError);
    // @ts-expect-error
    expect(() => browserStub.parseAward({ wallet: "w", amount: 1, ref: "r" })).toThrow(BrowserNotAllowedError);
    // @ts-expect-error
    expect(() => browserStub.signingPayload({ timestamp: "1", method: "POST", path: "/x", body: "" })).toThrow(BrowserNotAllowedError);
    expect(() => (browserStub.awardSchema as unknown as { safeParse: unknown }).safeParse).toThrow(BrowserNotAllowedError);
    // Plain error classes, so that code checking `instanceof` works the same.
    expect(new browserStub.RefConflictError({ ref: "r", firstSeenIn: "run" })).toBeInstanceOf(Error);
    // An instance cannot exist, but a bundler may still keep the method: it refuses as well.
    expect(() => browserStub.HubServerClient.prototype.awardPoints.call(undefined, undefined as never)).toThrow(BrowserNotAllowedError);
    expect(browserStub.signerImplementation).toBe("none");
  });
});

describe("the browser build's types refuse the server client", () => {
  it("constructing it or awarding with it is a compile error (tsc checks the expect-errors)", () => {
    const attempt = () => {
      // @ts-expect-error the browser build takes no options: it does not run there
      const client = new browserStub.HubServerClient(options);
      // @ts-expect-error awardPoints refuses every award in the browser build
      return client.awardPoints({ wallet: "0xabc", amount: 1, ref: "r" });
    };
    expect(attempt).toThrow(BrowserNotAllowedError);
  });
});

describe("the browser build's class, its methods called without its constructor", () => {
  const browser = browserStub;

  it("refuses awardMany on its class, as its constructor does", () => {
    const proto = browser.HubServerClient.prototype;
    expect(() => proto.awardMany.call({}, "" as never)).toThrow(BrowserNotAllowedError);
    expect(() => proto.awardPoints.call({}, "" as never)).toThrow(BrowserNotAllowedError);
    expect(() => proto.awardMany.call({}, "" as never)).toThrow(/^public-hub-sdk\/server does not run in a browser: .* \(Your bundler resolved the "browser" build of public-hub-sdk\/server/);
  });
});
