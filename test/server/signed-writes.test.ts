import { createHash, createHmac } from "node:crypto";
import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { BadRequestError, ForbiddenError, HubClient, UnauthorizedError } from "public-hub-sdk";
import { createHubMock } from "public-hub-sdk/mock";
import { HubServerClient, signingPayload } from "public-hub-sdk/server";
import { useHubMock } from "../helpers/mock-server";
import { SECRET, SIGNING_KEY, serverClient } from "../helpers/server-client";

const { mock, server } = useHubMock();
const award = { wallet: "0xabc", amount: 3, reason: "diag", ref: "diag-1" };
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("a refused signed write says what was signed", () => {
  it("a wrong secret: UnauthorizedError with signing = exactly what was sent, and the usual causes", async () => {
    const error = (await serverClient(mock.baseUrl, { secret: "not-the-secret" }).awardPoints(award).catch((e: unknown) => e)) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    const [sent] = mock.requests;
    expect(error.signing).toEqual({
      timestamp: sent!.headers["x-api-timestamp"],
      method: "POST",
      path: "/api/v1/hub/alpha/bits/earn",
      bodySha256: sha256(sent!.body),
      clockOffsetMs: expect.any(Number),
    });
    expect(error.message).toContain("the secret does not belong to this clientId");
    expect(error.message).toContain("a proxy rewrote the path or the body (signed: POST /api/v1/hub/alpha/bits/earn");
    expect(error.message).toContain(`body sha256 ${sha256(sent!.body).slice(0, 12)}…);`);
    expect(error.message).toContain(`timestamp ${sent!.headers["x-api-timestamp"]}, offset to the server ${(error.signing!.clockOffsetMs / 1000).toFixed(1)} s). See error.signing.`);
    expect(JSON.parse(JSON.stringify(error)).signing).toEqual(error.signing);
  });

  it.each([
    [400, BadRequestError],
    [403, ForbiddenError],
  ] as const)("servers refusing signatures with %i get the diagnostics too", async (status, ErrorClass) => {
    const other = createHubMock({ signatureFailureStatus: status });
    server.use(...other.handlers);
    const error = await serverClient(other.baseUrl, { secret: "wrong" }).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect((error as UnauthorizedError).signing?.path).toBe("/api/v1/hub/alpha/bits/earn");
    expect((error as Error).message).toContain("Usual causes: the secret does not belong to this clientId");
  });

  it("a 403 for a key of another hub keeps the server's message alone: the signature was never the problem", async () => {
    const other = createHubMock({ keys: { pk_beta: { secret: SECRET, hub: "beta" } } });
    server.use(...other.handlers);
    const error = (await serverClient(other.baseUrl, { clientId: "pk_beta" }).awardPoints(award).catch((e: unknown) => e)) as ForbiddenError;
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toBe("403 Forbidden [forbidden]: This API key is scoped to another hub.");
    expect(error.signing?.path).toBe("/api/v1/hub/alpha/bits/earn");
  });

  it("a 400 about the award (an unknown kind) keeps the server's message alone", async () => {
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => HttpResponse.json({ code: "unknown_kind", message: "unknown kind" }, { status: 400 })));
    const error = (await serverClient(mock.baseUrl).awardPoints({ wallet: "0xabc", kind: "nope", ref: "k-1" }).catch((e: unknown) => e)) as BadRequestError;
    expect(error.message).toBe("400 Bad Request [unknown_kind]: unknown kind");
  });

  it("never carries the key", async () => {
    const error = await serverClient(mock.baseUrl, { secret: "wrong" }).awardPoints(award).catch((e: unknown) => e);
    const text = `${JSON.stringify(error)} ${(error as Error).message} ${JSON.stringify((error as UnauthorizedError).signing)}`;
    expect(text).not.toContain("wrong");
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SIGNING_KEY);
  });

  it("a failure that is not a refusal has no diagnostics", async () => {
    mock.failNext(3, { status: 503 });
    const error = await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ServerError" });
    expect((error as UnauthorizedError).signing).toBeUndefined();
  });

  it("signingPayload is the pure builder a server can compare with", () => {
    expect(signingPayload({ timestamp: "1700000000", method: "post", path: "/api/v1/hub/alpha/bits/earn", body: '{"a":1}' })).toBe(
      '1700000000.POST./api/v1/hub/alpha/bits/earn.{"a":1}',
    );
  });
});

describe("which refusals get the usual causes", () => {
  it("a 401 that names the key says the key, not the signature's checklist; one that names nothing gets the checklist", async () => {
    const error = (await serverClient(mock.baseUrl, { clientId: "pk_nobody" }).awardPoints(award).catch((e: unknown) => e)) as UnauthorizedError;
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error.code).toBe("invalid_api_key");
    expect(error.message).toContain("the hub refused the API key (clientId), not the signature");
    expect(error.message).not.toContain("Usual causes");
    server.use(http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, () => new HttpResponse("Unauthorized", { status: 401 })));
    const bare = (await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e)) as UnauthorizedError;
    expect(bare.message).toContain("Usual causes: the secret does not belong to this clientId");
  });
});

describe("the one re-send for the clock: only when what was signed is outside the window, less its margin", () => {
  // The server refuses every first attempt with a Date `skew` seconds after the timestamp signed, then accepts.
  const refuseWithSkew = (skew: number) => {
    const timestamps: string[] = [];
    server.use(
      http.post(`${mock.baseUrl}/hub/alpha/bits/earn`, ({ request }) => {
        const timestamp = request.headers.get("x-api-timestamp")!;
        timestamps.push(timestamp);
        if (timestamps.length > 1) return HttpResponse.json({ ok: true });
        const date = new Date((Number(timestamp) + skew) * 1000).toUTCString();
        return HttpResponse.json({ error: "unauthorized", message: "bad timestamp" }, { status: 401, headers: { date } });
      }),
    );
    return timestamps;
  };

  it.each([299, -299, 3_600])("a refusal whose Date is %i s from what was signed is sent again, signed in server time", async (skew) => {
    const timestamps = refuseWithSkew(skew);
    const { data, attempts } = await serverClient(mock.baseUrl).awardPoints({ wallet: "0xabc", amount: 1, ref: `skew-${skew}` }).withResponse();
    expect(data).toEqual({ ok: true });
    expect(attempts).toBe(2);
    expect(Math.abs(Number(timestamps[1]) - (Number(timestamps[0]) + skew))).toBeLessThanOrEqual(1);
  });

  it.each([298, -298, 0])("a refusal whose Date is %i s from what was signed is final: the clock was not the cause", async (skew) => {
    const timestamps = refuseWithSkew(skew);
    const error = await serverClient(mock.baseUrl).awardPoints({ wallet: "0xabc", amount: 1, ref: `skew-${skew}` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(timestamps).toHaveLength(1);
  });
});

describe("only a server client's writes are signed", () => {
  it("its reads carry no signature, and a refused read carries no `signing`", async () => {
    const seen: Headers[] = [];
    server.use(
      http.get(`${mock.baseUrl}/hub/alpha`, ({ request }) => (seen.push(request.headers), HttpResponse.json({ slug: "alpha" }))),
      http.get(`${mock.baseUrl}/hub/alpha/holder/:wallet`, () => HttpResponse.json({ error: "unauthorized", message: "bad key" }, { status: 401 })),
    );
    const client = serverClient(mock.baseUrl);
    await expect(client.getHub()).resolves.toEqual({ slug: "alpha" });
    expect(seen[0]!.get("x-api-signature")).toBeNull();
    expect(seen[0]!.get("x-api-timestamp")).toBeNull();
    const refused = (await client.getHolder("0xabc").catch((e: unknown) => e)) as UnauthorizedError;
    expect(refused).toBeInstanceOf(UnauthorizedError);
    expect(refused.signing).toBeUndefined();
    expect(refused.message).not.toContain("signed write");
  });
});
