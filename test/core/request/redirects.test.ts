import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubRedirectError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { useHubMock } from "../../helpers/mock-server";
import { BASE, client as fetchClient, run, scripted } from "../../helpers/scripted-fetch";
import { serverClient } from "../../helpers/server-client";

const { mock, server, client } = useHubMock();
const OTHER = "https://elsewhere.example.net";
const award = { wallet: "0xabc", amount: 3, reason: "r", ref: "redirect-1" };

/** The other origin: counts what reaches it (it must be nothing). */
function otherOrigin() {
  const seen: Request[] = [];
  server.use(http.all(`${OTHER}/*`, ({ request }) => (seen.push(request), HttpResponse.json({ stolen: true }))));
  return seen;
}

describe("signed writes never follow a redirect", () => {
  it.each([301, 302, 303, 307, 308] as const)("a %i to another origin: HubRedirectError, the other origin receives nothing", async (status) => {
    const seen = otherOrigin();
    mock.redirectNext(1, `${OTHER}/api/v1/hub/alpha/bits/earn`, status);
    const error = await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(error).toMatchObject({ status, location: `${OTHER}/api/v1/hub/alpha/bits/earn`, mayHaveBeenApplied: false });
    expect((error as Error).message).toContain(`${status} redirect to ${OTHER}/api/v1/hub/alpha/bits/earn`);
    expect(seen).toHaveLength(0);
    expect(mock.requests).toHaveLength(1);
    expect(mock.ledger).toHaveLength(0);
  });

  it("a 307 to another path of the same origin is not followed either (the signature covers one path)", async () => {
    mock.redirectNext(1, "/api/v1/hub/alpha/bits/earn-v2");
    const error = await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubRedirectError", status: 307, location: `${mock.baseUrl}/hub/alpha/bits/earn-v2` });
    expect(mock.requests).toHaveLength(1);
  });
});

describe("reads follow redirects within the API's origin only", () => {
  it("a same-origin redirect is followed, with x-api-key", async () => {
    mock.redirectNext(1, "/api/v1/hub/alpha", 308);
    await expect(client().getHub()).resolves.toMatchObject({ slug: "alpha" });
    expect(mock.requests).toHaveLength(2);
    expect(mock.requests[1]!.headers["x-api-key"]).toBe("pk_alpha_demo");
  });

  it("a redirect to another origin: HubRedirectError, x-api-key never leaves the origin", async () => {
    const seen = otherOrigin();
    mock.redirectNext(1, `${OTHER}/api/v1/hub/alpha`, 302);
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubRedirectError", status: 302, location: `${OTHER}/api/v1/hub/alpha` });
    expect(seen).toHaveLength(0);
  });

  it("a loop gives up after 5 followed hops", async () => {
    mock.redirectNext(10, "/api/v1/hub/alpha");
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(mock.requests).toHaveLength(6);
  });

  it("a Location that is not a URL (http://[broken) is a HubRedirectError naming it, not a TypeError", async () => {
    mock.failNext(1, { status: 302, headers: { location: "http://[broken" }, body: "" });
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubRedirectError", status: 302, location: "http://[broken" });
    expect(mock.requests).toHaveLength(1);
  });

  it("a redirect without Location is an error naming no location", async () => {
    mock.failNext(1, { status: 307, body: "" });
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubRedirectError", status: 307, location: undefined });
    expect(mock.requests).toHaveLength(1);
  });
});

describe("a runtime that hides redirects (an opaque redirect)", () => {
  // A client on a scripted fetch (test/helpers/scripted-fetch.ts), one call at a time.
  const client = fetchClient;
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("a read whose redirect the runtime hid lets it follow, that call only: later reads and writes never widen", async () => {
    const script = scripted([{}]);
    const seen: Array<RequestRedirect | undefined> = [];
    const opaque = async (url: unknown, init?: RequestInit) => {
      seen.push(init?.redirect);
      if (seen.length === 1) {
        const response = new Response(null, { status: 502 });
        Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
        return response;
      }
      return script.fetch(url as string, init);
    };
    const server = new HubServerClient({ baseUrl: BASE, clientId: "pk", hub: "alpha", secret: "s", logLevel: "off", fetch: opaque as typeof globalThis.fetch });
    await run([() => server.getHub()]);
    await run([() => server.awardPoints({ wallet: "0xabc", amount: 1, ref: "r-1" })]);
    await run([() => server.getHub()]);
    expect(seen).toEqual(["manual", "follow", "manual", "manual"]);
  });

  it("a hidden redirect that cannot be followed says the runtime hides it", async () => {
    const hidden = async () => {
      const response = new Response(null, { status: 502 });
      Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      return response;
    };
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const [result] = await run([() => client(hidden as typeof globalThis.fetch).getHub()]);
    expect((result as PromiseRejectedResult).reason).toBeInstanceOf(HubRedirectError);
    expect((result as PromiseRejectedResult).reason.message).toBe("Not following the opaque redirect: the runtime hides it. 2 attempts, 0 ms in all.");
  });
});
