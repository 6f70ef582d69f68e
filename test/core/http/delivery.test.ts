import { describe, expect, it } from "vitest";
import { HubConnectionError, ServerError, UnauthorizedError } from "public-hub-sdk";
import { innermostMessage, systemErrorCode } from "../../../src/core/http/delivery";
import { mayHaveBeenSent } from "../../../src/server/never-sent";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock } = useHubMock();
const award = { wallet: "0xabc", amount: 4, reason: "r", ref: "delivery-1" };

/** The shape undici gives: TypeError("fetch failed") → cause with the system code. */
const undiciError = (code: string) => new TypeError("fetch failed", { cause: Object.assign(new Error(`getaddrinfo ${code} x`), { code }) });

describe("delivery of a failed attempt", () => {
  it("finds the system code two causes deep, and in an AggregateError", () => {
    expect(systemErrorCode(new Error("outer", { cause: undiciError("ENOTFOUND") }))).toBe("ENOTFOUND");
    const aggregate = Object.assign(new AggregateError([Object.assign(new Error("v6"), { code: "ECONNREFUSED" })], "x"), {});
    expect(systemErrorCode(new TypeError("fetch failed", { cause: aggregate }))).toBe("ECONNREFUSED");
    expect(systemErrorCode(new Error("plain"))).toBeUndefined();
    expect(systemErrorCode("not an error")).toBeUndefined();
  });

  it.each(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"])("%s is never sent", (code) => {
    expect(mayHaveBeenSent(undiciError(code))).toBe(false);
  });

  it.each(["ECONNRESET", "UND_ERR_SOCKET", "EPIPE"])("%s may have been sent", (code) => {
    expect(mayHaveBeenSent(undiciError(code))).toBe(true);
  });

  it("an error with no code may have been sent (the safe answer for a write)", () => {
    expect(mayHaveBeenSent(new TypeError("Load failed"))).toBe(true);
  });

  it("the innermost message loses its query string", () => {
    const error = new TypeError("fetch failed", { cause: new Error("error sending request for url (https://h.test/x?wallet=0xabc&k=1)") });
    expect(innermostMessage(error)).toBe("error sending request for url (https://h.test/x?…)");
  });
});

describe("a write whose answer was lost says it may have been applied", () => {
  it("resets on every attempt: HubConnectionError, mayHaveBeenApplied, and the same ref again credits nothing more", async () => {
    mock.loseNextWrites(3, "network-error");
    const hub = serverClient(mock.baseUrl);
    const error = await hub.awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).toMatchObject({ mayHaveBeenApplied: true, origin: "https://hub.example.com" });
    expect((error as Error).message).toContain("It may have been applied: retrying with the same ref is safe.");
    expect(mock.ledger).toHaveLength(1);
    await expect(hub.awardPoints(award)).resolves.toMatchObject({ duplicate: true });
    expect(mock.ledger).toHaveLength(1);
  });

  it("5xx after retries: ServerError with mayHaveBeenApplied", async () => {
    mock.loseNextWrites(3, 502);
    const error = await serverClient(mock.baseUrl).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 502, mayHaveBeenApplied: true });
    expect((error as Error).message).toContain("retrying with the same ref is safe");
  });

  it("a refusal (401) was not applied", async () => {
    const error = await serverClient(mock.baseUrl, { secret: "wrong" }).awardPoints(award).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ mayHaveBeenApplied: false });
    expect((error as Error).message).not.toContain("may have been applied");
  });

  it("a refused connection was not applied, and names the origin but not the path", async () => {
    const refused = serverClient("http://127.0.0.1:9/api/v1", {
      fetch: async () => Promise.reject(undiciError("ECONNREFUSED")),
    });
    const error = await refused.awardPoints(award).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "HubConnectionError", code: "ECONNREFUSED", origin: "http://127.0.0.1:9", mayHaveBeenApplied: false });
    expect((error as Error).message).toBe("Connection to http://127.0.0.1:9 failed: ECONNREFUSED.");
  });

  it("a read never says it may have been applied", async () => {
    mock.failNext(3, { status: 503 });
    const error = await serverClient(mock.baseUrl).getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "ServerError", mayHaveBeenApplied: false });
  });
});
