import { describe, expect, it } from "vitest";
import { HubClient, HubConnectionError, HubRedirectError, HubResponseError, ServerError } from "public-hub-sdk";
import { decodeBody } from "../../../src/core/http/decode";
import { redirectError } from "../../../src/core/http/ky-adapter";
import type { StandardSchemaV1 } from "../../../src/core/types/standard-schema";

/** A client whose `fetch` answers (or fails) as told: no network, no mock. */
const clientWith = (fetch: typeof globalThis.fetch) =>
  new HubClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, logLevel: "off", fetch });

describe("errors without the usual parts", () => {
  it("a failure with neither code nor message says there was no HTTP response", async () => {
    const error = await clientWith(() => Promise.reject(new Error(""))).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect((error as Error).message).toBe("Connection to https://h.test failed: no HTTP response.");
  });

  it("an answer without a status text shows the status alone", async () => {
    const error = await clientWith(async () => new Response("", { status: 500 })).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as Error).message).toBe("500: (empty body)");
  });

  it("an answer with a status text and a code shows both", async () => {
    const body = JSON.stringify({ code: "boom", message: "it broke" });
    const error = await clientWith(async () => new Response(body, { status: 503, statusText: "Service Unavailable" })).getHub().catch((e: unknown) => e);
    expect((error as Error).message).toBe("503 Service Unavailable [boom]: it broke");
  });

  it("a redirect whose Location is not a URL keeps it as sent", () => {
    const response = new Response(null, { status: 302, headers: { location: "http://[broken" } });
    const error = redirectError(response, "https://h.test/api/v1/hub/alpha", "why");
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(error.location).toBe("http://[broken");
    expect(redirectError(new Response(null, { status: 302, headers: { location: "/x" } }), "https://h.test/a/b", "why").location).toBe("https://h.test/x");
    expect(redirectError(new Response(null, { status: 302 }), "https://h.test/a", "why").location).toBeUndefined();
  });
});

describe("decodeBody", () => {
  const raw = (text: string, headers: Record<string, string> = {}) => ({ status: 200, headers: new Headers(headers), text, response: new Response(text) });
  const failure = (promise: Promise<unknown>) => promise.then(() => expect.unreachable(), (e: unknown) => e as HubResponseError);

  it("names a missing content-type", async () => {
    const error = await failure(decodeBody(raw("nope"), "object"));
    expect(error.message).toBe("Unusable 200 response (invalid-json): expected JSON, got no content-type: nope");
    expect(error.body).toBe("nope");
  });

  it("names the content-type it got", async () => {
    const error = await failure(decodeBody(raw("<p>", { "content-type": "text/html" }), "object"));
    expect(error.message).toBe("Unusable 200 response (invalid-json): expected JSON, got text/html: <p>");
  });

  it("says which shapes a list accepts, and keeps the parsed value", async () => {
    const error = await failure(decodeBody(raw("3"), "object-or-array"));
    expect(error.message).toBe("Unusable 200 response (unexpected-shape): expected a JSON object or array: 3");
    expect(error.body).toBe(3);
    expect((await failure(decodeBody(raw("[]"), "object"))).message).toBe("Unusable 200 response (unexpected-shape): expected a JSON object: []");
    expect(await decodeBody(raw("[1]"), "object-or-array")).toEqual([1]);
    expect(await decodeBody(raw('{"a":1}'), "object-or-empty")).toEqual({ a: 1 });
  });

  it("an empty write answer is {} (checked by the schema too); an empty read answer is an error", async () => {
    expect(await decodeBody(raw(" "), "object-or-empty")).toEqual({});
    const error = await failure(decodeBody(raw(""), "object"));
    expect(error.message).toBe("Unusable 200 response (empty-body): the server sent no body");
    expect(error.problem).toBe("empty-body");
  });

  it("schema issues name their path, (root) without one, and the key of a path segment object", async () => {
    const schema: StandardSchemaV1<unknown, never> = {
      "~standard": {
        version: 1,
        vendor: "test",
        validate: () => ({ issues: [{ message: "not a hub" }, { message: "bad", path: ["a", { key: 0 }, 2] }] }),
      },
    };
    const error = await failure(decodeBody(raw('{"x":1}'), "object", schema));
    expect(error.message).toBe("Unusable 200 response (schema-mismatch): the body does not match the schema: (root): not a hub; a.0.2: bad");
    expect(error.issues).toEqual([
      { path: [], message: "not a hub", code: "schema_mismatch" },
      { path: ["a", 0, 2], message: "bad", code: "schema_mismatch" },
    ]);
    expect(error.body).toEqual({ x: 1 });
  });

  it("a passing schema's value is what the call gives", async () => {
    const schema: StandardSchemaV1<unknown, string> = { "~standard": { version: 1, vendor: "test", validate: async () => ({ value: "parsed" }) } };
    expect(await decodeBody(raw('{"x":1}'), "object", schema)).toBe("parsed");
  });
});
