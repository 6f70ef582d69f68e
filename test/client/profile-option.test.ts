// The `profile` option: what HubClient reads of it (its envelope) and how it is checked; the
// server client's reading of its reset's lag.
import { http, HttpResponse } from "msw";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HubClient, HubValidationError, type HubProfile } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { SECRET } from "../helpers/server-client";
import { useHubMock } from "../helpers/mock-server";
import { run, scripted } from "../helpers/scripted-fetch";

const { mock, server, client } = useHubMock();

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("HubClient's profile", () => {
  it("its envelope unwraps every read; unwrap, when given, wins", async () => {
    server.use(http.get(`${mock.baseUrl}/hub/alpha`, () => HttpResponse.json({ data: { slug: "alpha" }, meta: { request_id: "r1" } })));
    const profile: HubProfile = { version: 1, envelope: "data" };
    await expect(client({ profile }).getHub()).resolves.toEqual({ slug: "alpha" });
    const { envelope } = await client({ profile }).getHub().withResponse();
    expect(envelope).toEqual({ data: { slug: "alpha" }, meta: { request_id: "r1" } });
    await expect(client({ profile, unwrap: "meta" }).getHub()).resolves.toEqual({ request_id: "r1" });
    expect(client({ profile }).profile).toBe(profile);
  });

  it("a profile that is not one is a HubValidationError naming it, and nothing is built", () => {
    const bad: unknown[] = [null, "profile.json", { envelope: "data" }, { version: 2 }, { version: 1, envelope: "" }, { version: 1, envelope: 5 }];
    for (const profile of bad) {
      const build = () => new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", profile: profile as HubProfile });
      expect(build).toThrow(HubValidationError);
      expect(build).toThrow(/profile must be a hub profile/);
    }
  });

  it("HubServerClient: its rate limit's resetLagSeconds ends a wait that much before the announced reset; a bad one is refused", async () => {
    const answers = [{ headers: { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "3" } }, { headers: { "x-ratelimit-remaining": "5", "x-ratelimit-reset": "1" } }];
    const plain = scripted(answers);
    const plainClient = new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", logLevel: "off", maxConcurrency: 1, fetch: plain.fetch });
    await run([() => plainClient.getHub(), () => plainClient.getHub()]);
    expect(plain.times).toEqual([0, 3_000]);
    vi.useRealTimers();
    const lagged = scripted(answers);
    const profile: HubProfile = { version: 1, rateLimit: { headers: "x-ratelimit", resetLagSeconds: 1 } };
    const server = (profile: unknown) => new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: SECRET, logLevel: "off", maxConcurrency: 1, fetch: lagged.fetch, profile: profile as HubProfile });
    const laggedClient = server(profile);
    await run([() => laggedClient.getHub(), () => laggedClient.getHub()]);
    expect(lagged.times).toEqual([0, 2_000]);
    for (const bad of [-1, "1", Number.NaN]) expect(() => server({ version: 1, rateLimit: { headers: "x-ratelimit", resetLagSeconds: bad } })).toThrow(HubValidationError);
  });
});
