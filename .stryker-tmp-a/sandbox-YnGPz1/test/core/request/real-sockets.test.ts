// @ts-nocheck
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HubClient, HubConnectionError, HubTimeoutError } from "public-hub-sdk";
import { serverClient } from "../../helpers/server-client";
import { timeless } from "../../helpers/timeless";

// Real sockets on loopback, no msw: what a server really receives, and what real failures say.
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

interface Seen {
  headers: IncomingMessage["headers"];
  body: string;
}

async function listen(handle: (req: IncomingMessage, body: string, res: import("node:http").ServerResponse) => void) {
  const seen: Seen[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    seen.push({ headers: req.headers, body });
    handle(req, body, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const json = (res: import("node:http").ServerResponse, body: unknown) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));

/**
 * Next.js patches `fetch`; handed a Request, it forwards the body as a stream, which undici sends
 * chunked without a length. This does the same, so a Request reaching `fetch` shows up here.
 */
const nextLikeFetch: typeof fetch = (input, init) =>
  input instanceof Request
    ? fetch(input.url, { method: input.method, headers: input.headers, body: input.body, duplex: "half", redirect: input.redirect } as RequestInit)
    : fetch(input, init);

describe("a write goes out with its exact body and a content-length", () => {
  it("even through a patched fetch that streams Request bodies (Next.js)", async () => {
    const api = await listen((_req, _body, res) => json(res, { ok: true }));
    const award = { wallet: "0xabc", amount: 5, reason: "ünïcode ✓", ref: "cl-1" };
    await serverClient(`${api.origin}/api/v1`, { fetch: nextLikeFetch }).awardPoints(award);
    const [request] = api.seen;
    expect(request!.body).toBe(JSON.stringify(award));
    expect(request!.headers["content-length"]).toBe(String(Buffer.byteLength(JSON.stringify(award))));
    expect(request!.headers["transfer-encoding"]).toBeUndefined();
  });
});

describe("real network failures say what failed and where", () => {
  it("a refused port: ECONNREFUSED and the origin, not the query", async () => {
    const api = await listen(() => undefined);
    const closed = api.origin;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const error = await new HubClient({ baseUrl: `${closed}/api/v1`, clientId: "pk", hub: "alpha", retry: 0 })
      .getStakeStatus("0xsecretwallet")
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect(error).toMatchObject({ code: "ECONNREFUSED", origin: closed });
    expect(timeless((error as Error).message)).toMatch(new RegExp(`^Connection to ${closed.replace(/\./g, "\\.")} failed: ECONNREFUSED\\. \\d attempts?, T in all\\.$`));
    expect((error as Error).message).not.toContain("0xsecretwallet");
  });

  it("a reset after the server read the write: ECONNRESET-like code, may have been applied", async () => {
    const api = await listen((req) => req.socket.destroy());
    const error = await serverClient(`${api.origin}/api/v1`, { retry: 0 }).awardPoints({ wallet: "0xabc", amount: 1, ref: "reset-1" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubConnectionError);
    expect((error as HubConnectionError).code).toMatch(/^(ECONNRESET|UND_ERR_SOCKET|EPIPE)$/);
    expect(error).toMatchObject({ origin: api.origin, mayHaveBeenApplied: true });
    expect(api.seen).toHaveLength(1);
  });

  it("a silent server: HubTimeoutError naming the origin; a timed-out write may have been applied", async () => {
    const api = await listen(() => undefined); // never answers
    const error = await serverClient(`${api.origin}/api/v1`, { retry: 0, timeout: 150 })
      .awardPoints({ wallet: "0xabc", amount: 1, ref: "silent-1" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HubTimeoutError);
    expect(error).toMatchObject({ timeout: 150, origin: api.origin, code: "ETIMEDOUT", mayHaveBeenApplied: true });
    expect((error as Error).message).toContain(`Request to ${api.origin} timed out after 150 ms.`);
  });
});
