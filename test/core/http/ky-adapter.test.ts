import { afterEach, describe, expect, it, vi } from "vitest";
import { HubAbortError, HubClient, HubConnectionError, HubRedirectError, HubResponseError, HubTimeoutError, HubValidationError, ServerError } from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
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
    expect(error.issues).toEqual([]);
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

describe("what a failed call says about a write", () => {
  afterEach(() => vi.useRealTimers());
  const never = (_url: unknown, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)));
  const serverWith = (fetch: typeof globalThis.fetch) =>
    new HubServerClient({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", secret: "s", retry: 0, logLevel: "off", timeout: 40, fetch });
  const award = { wallet: "w", amount: 1, ref: "r" };

  it("a write cut by its timeout may have been applied, and says so", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const pending = serverWith(never).awardPoints(award).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    const error = (await pending) as HubTimeoutError;
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect(error.mayHaveBeenApplied).toBe(true);
    expect(error.message).toBe("Request to https://h.test timed out after 40 ms. It may have been applied: retrying with the same ref is safe.");
  });

  it("a cut attempt may have been applied even when the fetch's own error says it was never sent", async () => {
    // Some fetches report the abort as their last connection error: the cut happened at an unknown point.
    const refusedOnAbort = (_url: unknown, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(Object.assign(new Error("connect failed"), { code: "ECONNREFUSED" }))),
      );
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const timedOut = serverWith(refusedOnAbort).awardPoints(award).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    expect(await timedOut).toMatchObject({ name: "HubTimeoutError", mayHaveBeenApplied: true });
    vi.useRealTimers();

    const controller = new AbortController();
    const aborted = serverWith((url, init) => {
      queueMicrotask(() => controller.abort());
      return refusedOnAbort(url, init);
    })
      .awardPoints(award, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect(await aborted).toMatchObject({ name: "HubAbortError", mayHaveBeenApplied: true });
  });

  it("a read cut by its timeout was not applied", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    const pending = clientWith(never).getHub({ timeout: 40 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(50);
    const error = (await pending) as HubTimeoutError;
    expect(error).toMatchObject({ name: "HubTimeoutError", mayHaveBeenApplied: false, timeout: 40 });
    expect(error.message).toBe("Request to https://h.test timed out after 40 ms.");
  });

  it("a write aborted while in flight may have been applied; aborted before it started, it was not", async () => {
    const controller = new AbortController();
    const started = serverWith((url, init) => {
      queueMicrotask(() => controller.abort(new Error("user left")));
      return never(url, init);
    })
      .awardPoints(award, { signal: controller.signal })
      .catch((e: unknown) => e);
    const inFlight = (await started) as HubAbortError;
    expect(inFlight).toBeInstanceOf(HubAbortError);
    expect(inFlight.mayHaveBeenApplied).toBe(true);
    expect(inFlight.cause).toEqual(new Error("user left"));
    expect(inFlight.message).toBe("Request aborted by the caller. It may have been applied: retrying with the same ref is safe.");

    const early = new AbortController();
    early.abort();
    const before = (await serverWith(never).awardPoints(award, { signal: early.signal }).catch((e: unknown) => e)) as HubAbortError;
    expect(before).toBeInstanceOf(HubAbortError);
    expect(before.mayHaveBeenApplied).toBe(false);
    expect(before.message).toBe("Request aborted by the caller.");
  });

  it("a read aborted while in flight is a HubAbortError, not applied", async () => {
    const controller = new AbortController();
    const call = clientWith((url, init) => {
      queueMicrotask(() => controller.abort());
      return never(url, init);
    }).getHub({ signal: controller.signal });
    await expect(call).rejects.toMatchObject({ name: "HubAbortError", mayHaveBeenApplied: false, message: "Request aborted by the caller." });
  });

  it("a HubError thrown while sending reaches the caller unchanged", async () => {
    const refusal = new HubValidationError("stamp", [{ path: [], code: "custom", message: "no" }]);
    class Stamping extends HubClient {
      stamped() {
        return this.request({ segments: ["hub", this.hub], beforeSend: () => Promise.reject(refusal) });
      }
    }
    const hub = new Stamping({ baseUrl: "https://h.test/api/v1", clientId: "pk", hub: "alpha", retry: 0, logLevel: "off", fetch: never });
    await expect(hub.stamped()).rejects.toBe(refusal);
  });
});

describe("redirect answers", () => {
  it("a 300 is a redirect too, named with the reason", async () => {
    const error = await clientWith(async () => new Response(null, { status: 300, headers: { location: "/api/v1/hub/alpha/2" } })).discover().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    expect((error as Error).message).toBe("Not following the 300 redirect to https://h.test/api/v1/hub/alpha/2: the SDK follows no redirect here.");
  });

  it("a browser's opaque redirect (status 0) is a HubRedirectError without location", async () => {
    const opaque = () => {
      const response = new Response(null, { status: 502 });
      Object.defineProperties(response, { type: { value: "opaqueredirect" }, status: { value: 0 } });
      return Promise.resolve(response);
    };
    const error = await clientWith(opaque).getHub().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubRedirectError);
    expect(error).toMatchObject({ status: 0, location: undefined });
  });

  it("a 400 is an API error, not a redirect", async () => {
    const error = await clientWith(async () => new Response(null, { status: 400, headers: { location: "/x" } })).getHub().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "BadRequestError", status: 400 });
  });
});
