// HubServerClient with a profile: the award's outcome is read from the signals the profile
// declares, and nothing else; the whole profile is checked at construction.
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { HubApiError, HubValidationError, type HubProfile } from "public-hub-sdk";
import { useHubMock } from "../helpers/mock-server";
import { serverClient } from "../helpers/server-client";

const { mock, server } = useHubMock();
const EARN = () => `${mock.baseUrl}/hub/alpha/bits/earn`;
const award = { wallet: "0xabc", amount: 5, reason: "quest", ref: "profile-1" };
const answering = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => server.use(http.post(EARN(), () => HttpResponse.json(body, { status, headers })));
const withProfile = (award: NonNullable<HubProfile["award"]>) => serverClient(mock.baseUrl, { profile: { version: 1, award } });

describe("an award's outcome by the profile's signals", () => {
  it("a declared 409 code is a duplicate; a 409 with the conflict's code stays an error, though the SDK's rule would call its code a duplicate", async () => {
    const client = withProfile({ duplicate: { status: 409, code: "E_TAKEN" }, conflict: { status: 409, code: "duplicate_ref_other" } });
    answering(409, { error: { code: "E_TAKEN", message: "taken" } });
    await expect(client.awardPoints(award).withResponse()).resolves.toMatchObject({ duplicate: true });
    answering(409, { error: { code: "duplicate_ref_other", message: "ref used with other parameters" } });
    await expect(client.awardPoints(award)).rejects.toMatchObject({ status: 409, code: "duplicate_ref_other" });
  });

  it("a declared 2xx field is read; the SDK's own flags are not, once a signal is declared", async () => {
    const client = withProfile({ duplicate: { status: 200, field: { name: "state", value: "repeat" } } });
    answering(200, { data: { state: "repeat" } });
    expect((await client.awardPoints(award).withResponse()).duplicate).toBe(true);
    answering(200, { duplicate: true });
    expect((await client.awardPoints(award).withResponse()).duplicate).toBe(false);
  });

  it("an indistinguishable hub's answers are never flagged, whatever they hold", async () => {
    answering(208, { duplicate: true }, { "idempotent-replayed": "true" });
    expect((await withProfile({ duplicate: "indistinguishable" }).awardPoints(award).withResponse()).duplicate).toBe(false);
    expect((await withProfile({}).awardPoints(award).withResponse()).duplicate).toBe(true);
  });

  it("the duplicate option decides before the profile", async () => {
    answering(409, { error: { code: "E_TAKEN" } });
    const client = serverClient(mock.baseUrl, { profile: { version: 1, award: { duplicate: { status: 409, code: "E_TAKEN" } } }, duplicate: () => false });
    await expect(client.awardPoints(award)).rejects.toBeInstanceOf(HubApiError);
  });

  it("a profile with a field the browser client does not read, malformed, is refused here", () => {
    const build = () => serverClient(mock.baseUrl, { profile: { version: 1, award: { duplicate: { status: "409" } } } as unknown as HubProfile });
    expect(build).toThrow(HubValidationError);
    expect(build).toThrow(/award\.duplicate/);
  });
});
