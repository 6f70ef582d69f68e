import { http, HttpResponse } from "msw";
import { describe, expect, it } from "vitest";
import { HubApiError, HubResponseError, RateLimitError, ServerError, UnauthorizedError, leaderboardRows } from "public-hub-sdk";
import { createHubMock, type MockErrorFormat } from "public-hub-sdk/mock";
import { useHubMock } from "../../helpers/mock-server";

const { mock, server, client } = useHubMock();
const hubUrl = () => `${mock.baseUrl}/hub/alpha`;

describe("odd 2xx bodies are typed errors with status and excerpt", () => {
  it.each([
    ["HTML page", () => HttpResponse.html("<html><body>Welcome to nginx!</body></html>"), "invalid-json", "<html><body>Welcome to nginx!</body></html>"],
    ["empty body", () => new HttpResponse(null, { status: 200 }), "empty-body", ""],
    ["204 no content", () => new HttpResponse(null, { status: 204 }), "empty-body", ""],
    ["whitespace only", () => HttpResponse.text(" \r\n\t ", { headers: { "content-type": "application/json" } }), "empty-body", ""],
    ["truncated JSON", () => HttpResponse.text('{"slug":"al', { headers: { "content-type": "application/json" } }), "invalid-json", '{"slug":"al'],
    ["a JSON array for an object", () => HttpResponse.json([1, 2]), "unexpected-shape", "[1,2]"],
    ["a JSON string", () => HttpResponse.json("ok"), "unexpected-shape", '"ok"'],
    ["JSON null", () => HttpResponse.json(null), "unexpected-shape", "null"],
  ])("%s", async (_name, respond, problem, bodyExcerpt) => {
    server.use(http.get(hubUrl(), respond));
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubResponseError);
    expect(error).toMatchObject({ problem, bodyExcerpt });
    expect((error as HubResponseError).status).toBeGreaterThanOrEqual(200);
  });

  it("JSON sent with a wrong content-type is still read", async () => {
    server.use(http.get(hubUrl(), () => HttpResponse.text('{"slug":"alpha","x":1}')));
    expect(await client().getHub()).toEqual({ slug: "alpha", x: 1 });
  });

  it("a long HTML body is cut to a short excerpt, and the error keeps only its first 4 KB", async () => {
    const page = `<p>${"x".repeat(10_000_000)}</p>`;
    server.use(http.get(hubUrl(), () => HttpResponse.html(page)));
    const error = (await client().getHub().catch((e: unknown) => e)) as HubResponseError;
    expect(error.bodyExcerpt.length).toBeLessThanOrEqual(201);
    expect(error.message.length).toBeLessThan(400);
    expect(error.body).toBe(`${page.slice(0, 4_096)}… (10000007 characters in all)`);
  });

  it("a body of exactly 4 KB is kept whole", async () => {
    const page = "y".repeat(4_096);
    server.use(http.get(hubUrl(), () => HttpResponse.text(page)));
    const error = (await client().getHub().catch((e: unknown) => e)) as HubResponseError;
    expect(error.body).toBe(page);
  });

  it("the leaderboard accepts a bare array of rows", async () => {
    server.use(...createHubMock({ leaderboardFormat: "array" }).handlers);
    const board = await client().getLeaderboard({ limit: 2 });
    expect(Array.isArray(board)).toBe(true);
    expect(leaderboardRows(board)).toHaveLength(2);
  });
});

describe("error bodies of any shape", () => {
  const formats: Array<[MockErrorFormat, string | undefined]> = [
    ["nested", "invalid_api_key"],
    ["flat", "invalid_api_key"],
    ["error-string", "invalid_api_key"],
    ["problem", undefined],
    ["text", undefined],
    ["html", undefined],
  ];
  it.each(formats)("%s format: status, code and message are found", async (errorFormat, code) => {
    server.use(...createHubMock({ errorFormat }).handlers);
    const error = await client({ clientId: "pk_unknown" }).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code });
    // An HTML page is named by its title, never pasted.
    expect((error as UnauthorizedError).message).toContain(errorFormat === "html" ? 'HTML page "401 Unauthorized"' : "Unknown API key");
    expect((error as UnauthorizedError).requestId).toMatch(/^req_mock_/);
  });

  it("an unknown JSON shape is kept whole, with an excerpt in the message", async () => {
    server.use(http.get(hubUrl(), () => HttpResponse.json({ oops: { why: 42 } }, { status: 409 })));
    const error = await client().getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubApiError);
    expect(error).toMatchObject({ name: "ConflictError", status: 409, code: undefined, body: { oops: { why: 42 } } });
    expect((error as HubApiError).message).toBe('409 Conflict: {"oops":{"why":42}}');
  });

  it("an empty error body says so", async () => {
    server.use(http.get(hubUrl(), () => new HttpResponse(null, { status: 418 })));
    const error = (await client().getHub().catch((e: unknown) => e)) as HubApiError;
    expect(error.message).toBe("418 I'm a Teapot: (empty body)");
    expect(error.body).toBe("");
  });

  it("an HTML 502 from a proxy is a ServerError named by the page's title, the page kept as text", async () => {
    mock.failNext(1, { status: 502 });
    const error = (await client({ retry: 0 }).getHub().catch((e: unknown) => e)) as ServerError;
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(502);
    expect(error.message).toBe('502 Bad Gateway: HTML page "502 Bad Gateway"');
    expect(error.body).toMatch(/^<html>\r\n<head><title>502 Bad Gateway/);
    expect(error.headers["content-type"]).toBe("text/html");
  });

  it.each([
    ["seconds", () => "7", 7],
    // Built when the server answers, not when the table is built: the test may start seconds later.
    ["HTTP date", () => new Date(Date.now() + 10_000).toUTCString(), 10],
  ])("RateLimitError.retryAfterMs from %s", async (_name, value, expected) => {
    server.use(http.get(hubUrl(), () => HttpResponse.json({ message: "slow" }, { status: 429, headers: { "retry-after": value() } })));
    const error = (await client({ retry: 0 }).getHub().catch((e: unknown) => e)) as RateLimitError;
    expect(error).toBeInstanceOf(RateLimitError);
    expect(Math.abs(error.retryAfterMs! / 1000 - expected)).toBeLessThanOrEqual(1);
  });
});
