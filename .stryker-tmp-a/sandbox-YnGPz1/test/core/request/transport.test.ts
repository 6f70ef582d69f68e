// @ts-nocheck
import { describe, expect, it } from "vitest";
import { useHubMock } from "../../helpers/mock-server";
import { serverClient } from "../../helpers/server-client";

const { mock, client } = useHubMock();

describe("the headers of a request", () => {
  it("a read asks for JSON, carries the key, and no content-type (a browser would preflight it)", async () => {
    await client({ headers: { "x-trace": "t" } }).getHub();
    const [read] = mock.requests;
    expect(read!.headers).toMatchObject({ accept: "application/json", "x-api-key": "pk_alpha_demo", "x-trace": "t" });
    expect(read!.headers["content-type"]).toBeUndefined();
  });

  it("the key and accept are the SDK's, whatever the case of the names in the headers option", async () => {
    await client({ headers: { "X-Api-Key": "pk_other", Accept: "text/html", "X-Trace": "t" } }).getHub();
    expect(mock.requests[0]!.headers).toMatchObject({ accept: "application/json", "x-api-key": "pk_alpha_demo", "x-trace": "t" });
  });

  it("a write sends its body as application/json, whatever the headers option says", async () => {
    await serverClient(mock.baseUrl, { headers: { "content-type": "text/plain", accept: "text/html", "x-api-key": "pk_other" } }).awardPoints({ wallet: "w", amount: 1, ref: "t-1" });
    const [write] = mock.requests;
    expect(write!.headers).toMatchObject({ "content-type": "application/json", accept: "application/json", "x-api-key": "pk_alpha_demo" });
    expect(write!.body).toBe('{"wallet":"w","amount":1,"ref":"t-1"}');
  });
});
