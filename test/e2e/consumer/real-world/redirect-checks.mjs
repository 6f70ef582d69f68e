// Redirects from servers of our own: a signed write never follows one; a read follows one to the
// same origin (with its key) but never carries the key to another origin.
import { createServer } from "node:http";
import * as sdk from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { startApiServer } from "../api-server.mjs";
import { WALLET, credentials, secret } from "./expectations.mjs";

/** The other origin: counts what reaches it and answers 200 to anything. */
async function startOtherOrigin() {
  const received = [];
  const server = createServer((req, res) => {
    received.push({ method: req.method, path: req.url, apiKey: req.headers["x-api-key"], signed: "x-api-signature" in req.headers });
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "Other Origin", ok: true }));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, received, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))) };
}

// `location` as sent or resolved: both name the same place.
const isRedirectError = (error, status, location, base) =>
  typeof sdk.HubRedirectError === "function" && error instanceof sdk.HubRedirectError && error instanceof sdk.HubError &&
  error.status === status && typeof error.location === "string" && new URL(error.location, base).href === new URL(location, base).href;

export async function redirectChecks({ check, expect, describe }) {
  const other = await startOtherOrigin();
  // Everything under /moved/ is moved: to the other origin, or to /api/v1 on this one.
  const api = await startApiServer({
    wsgi: true,
    intercept: (req, res) => {
      const url = new URL(req.url, "http://x");
      if (url.pathname.startsWith("/cross/")) return res.writeHead(307, { location: `${other.origin}${url.pathname}${url.search}` }).end(), true;
      if (url.pathname.startsWith("/same/")) return res.writeHead(307, { location: `/api/v1/${url.pathname.slice(6)}${url.search}` }).end(), true;
      return false;
    },
  });
  const awardOnce = (baseUrl) => new HubServerClient({ baseUrl, ...credentials, secret }).awardPoints({ wallet: WALLET, amount: 2, ref: `redirect:${Date.now()}` }).then(() => undefined, (e) => e);
  try {
    await check("307 to another origin on a read → HubRedirectError; the other origin receives nothing", async () => {
      const before = api.log.length;
      const error = await new sdk.HubClient({ baseUrl: `${api.origin}/cross`, ...credentials }).getHub().then(() => undefined, (e) => e);
      const location = `${other.origin}/cross/hub/alpha`;
      expect(other.received.length === 0, () => `the other origin received ${JSON.stringify(other.received)}; SDK gave ${error ? describe(error) : "a result"}`);
      expect(isRedirectError(error, 307, location, api.origin), () => `got ${error ? describe(error) : "a result"}`);
      return `${describe(error).slice(0, 160)}; ${api.log.length - before} request(s) to the first origin`;
    });

    await check("307 to another origin on a signed award → HubRedirectError; nothing further is sent", async () => {
      const before = api.log.length;
      const error = await awardOnce(`${api.origin}/cross`);
      const first = api.log.slice(before);
      expect(other.received.length === 0, () => `the other origin received ${JSON.stringify(other.received)}; SDK gave ${error ? describe(error) : "a result"}`);
      expect(first.length === 1, () => `the first origin received ${first.length} requests; SDK gave ${error ? describe(error) : "a result"}`);
      expect(isRedirectError(error, 307, `${other.origin}/cross/hub/alpha/bits/earn`, api.origin), () => `got ${error ? describe(error) : "a result"}`);
      return describe(error).slice(0, 160);
    });

    await check("307 to the same origin on a signed award → HubRedirectError; nothing further is sent", async () => {
      const before = api.log.length;
      const error = await awardOnce(`${api.origin}/same`);
      const sent = api.log.slice(before);
      expect(sent.length === 1 && isRedirectError(error, 307, "/api/v1/hub/alpha/bits/earn", api.origin), () => `${sent.length} requests ${JSON.stringify(sent.map((e) => `${e.method} ${e.path} ${e.status}`))}; SDK gave ${error ? describe(error) : "a result"}`);
      return describe(error).slice(0, 160);
    });

    await check("307 to the same origin on a read is followed, with x-api-key", async () => {
      const before = api.log.length;
      const result = await new sdk.HubClient({ baseUrl: `${api.origin}/same`, ...credentials }).getHub().catch((e) => e);
      const sent = api.log.slice(before).map((e) => `${e.method} ${e.path} ${e.status}`);
      expect(result?.name === "Alpha Hub", () => `got ${result instanceof Error ? describe(result) : JSON.stringify(result)}; requests ${JSON.stringify(sent)}`);
      return sent.join(" → ");
    });
  } finally {
    await api.close();
    await other.close();
  }
}
