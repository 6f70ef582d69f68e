import { describe, expect, it } from "vitest";
import { normalizeBaseUrl, pathOf } from "../../src/client/check-input";
import { HubClient, HubValidationError } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";

const ODD_SLUG = "a/b ?#ü";
const ODD_WALLET = "w/1 ?#é%2F";
const { mock, client } = useHubMock({
  baseUrl: "https://odd.example.com/api/v1",
  hubs: { [ODD_SLUG]: { config: { name: "Odd" }, stakers: [], holders: { [ODD_WALLET]: 3 } } },
  keys: { pk_odd: { secret: "s", hub: ODD_SLUG } },
});

describe("pathOf", () => {
  it("encodes each value as one segment", () => {
    expect(pathOf(["hub", "café", "holder", "a/b?c#d e"])).toBe("hub/caf%C3%A9/holder/a%2Fb%3Fc%23d%20e");
  });

  it("encodes an already-encoded value again, so it arrives as typed", () => {
    expect(pathOf(["hub", "a%2Fb"])).toBe("hub/a%252Fb");
  });
});

describe("a proxy mount", () => {
  it("keeps the base path: calls go below it, and discovery is the base address itself", async () => {
    const seen: string[] = [];
    const fetch = (async (input: string) => (seen.push(input), Response.json({}))) as unknown as typeof globalThis.fetch;
    const hub = new HubClient({ baseUrl: "https://h.example.com/edge/hub-api/", clientId: "pk", hub: "x", fetch, logLevel: "off" });
    await hub.getHub();
    await hub.discover();
    expect(seen).toEqual(["https://h.example.com/edge/hub-api/hub/x", "https://h.example.com/edge/hub-api"]);
  });
});

describe("encoded requests reach the mock as one segment", () => {
  it("holder: slug and wallet with / space ? # and non-ASCII", async () => {
    const holder = await client({ clientId: "pk_odd", hub: ODD_SLUG }).getHolder(ODD_WALLET);
    expect(holder).toMatchObject({ hub: ODD_SLUG, wallet: ODD_WALLET, holder: true, tokens: 3 });
    expect(new URL(mock.requests[0]!.url).pathname).toBe("/api/v1/hub/a%2Fb%20%3F%23%C3%BC/holder/w%2F1%20%3F%23%C3%A9%252F");
  });

  it("stake-status: the wallet is an encoded query value", async () => {
    await client({ clientId: "pk_odd", hub: ODD_SLUG }).getStakeStatus("w&x=1#?");
    expect(new URL(mock.requests[0]!.url).searchParams.get("wallet")).toBe("w&x=1#?");
  });
});

describe("normalizeBaseUrl", () => {
  it.each([
    [undefined, 'is required: the API base address (is its environment variable set?)'],
    ["  ", 'is required: the API base address (is its environment variable set?)'],
    ["hub.example.com", '"hub.example.com" must be an absolute http(s) URL, such as "https://hub.example.com"'],
    ["ws://h.test", '"ws://h.test" must be an absolute http(s) URL, such as "https://h.test"'],
    ["localhost:4010/api/v1", '"localhost:4010/api/v1" must be an absolute http(s) URL, such as "https://localhost:4010/api/v1"'],
    ["https://h.test/api/v1#top", "must not carry a query or fragment"],
    ["https://user:pw@h.test/api/v1", '"h.test" must not carry credentials'],
    ["https://user@h.test/api/v1", '"h.test" must not carry credentials'],
    ["https://:pw@h.test/api/v1", '"h.test" must not carry credentials'],
    // A malformed address is echoed without its credentials: a user and password, a query, a fragment.
    ["admin:s3cret@hub.example.com/api/v1", '"hub.example.com/api/v1" must be an absolute http(s) URL, such as "https://hub.example.com/api/v1"'],
    ["ftp://admin:s3cret@hub.example.com/api?token=t0k#x", '"ftp://hub.example.com/api" must be an absolute http(s) URL, such as "https://hub.example.com/api"'],
    ["hub.example.com/api?key=t0k", '"hub.example.com/api" must be an absolute http(s) URL, such as "https://hub.example.com/api"'],
  ])("%j: %s", (baseUrl, message) => {
    expect(() => normalizeBaseUrl(baseUrl)).toThrow(new HubValidationError({ what: "client options", issues: [{ path: ["baseUrl"], code: "invalid_url", message }] }));
    try {
      normalizeBaseUrl(baseUrl);
    } catch (error) {
      expect((error as HubValidationError).issues).toEqual([{ path: ["baseUrl"], code: "invalid_url", message }]);
    }
  });

  it("trims the spaces a paste brings along, non-breaking ones and a BOM too", () => {
    expect(normalizeBaseUrl("\u00a0\ufeffhttps://hub.example.com/api/v1\u00a0").href).toBe("https://hub.example.com/api/v1");
  });

  it("trims, keeps http, and drops every trailing slash", () => {
    expect(normalizeBaseUrl("  http://h.test:8080/mount///  ").href).toBe("http://h.test:8080/mount");
  });
});
