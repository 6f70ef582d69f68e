// Failures from servers of our own: a refused port, a DNS failure, a silent server, and a
// connection reset after the write was applied. Each error says what failed and where (the
// origin, never the query); a write that may have reached the server says so.
import { createServer } from "node:net";
import * as sdk from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { startApiServer } from "../api-server.mjs";
import { WALLET, credentials, saysMaybeApplied, secret } from "./expectations.mjs";

const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error }));

/** A HubConnectionError naming `code` (one of `codes`) and `origin`, in its fields and its message, without the query. */
function connectionProblem(error, codes, origin, describe) {
  const ok = error instanceof sdk.HubConnectionError && codes.includes(error.code) && error.origin === origin &&
    error.message.includes(error.code) && error.message.includes(origin) && !error.message.includes(WALLET);
  return ok ? "" : `expected HubConnectionError with code ${codes.join("|")} and origin ${origin} in the message, without the query; got ${error ? describe(error) : "a result"}`;
}

/** Accepts connections and never answers; counts them. */
async function startSilentServer() {
  const sockets = new Set();
  const server = createServer((socket) => sockets.add(socket));
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { origin: `http://127.0.0.1:${server.address().port}`, connections: () => sockets.size, close: () => new Promise((resolve) => { for (const s of sockets) s.destroy(); server.close(resolve); }) };
}

export async function failureChecks({ check, expect, describe }) {
  await check("a refused port → HubConnectionError ECONNREFUSED naming the origin, not the query", async () => {
    const probe = createServer();
    await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${probe.address().port}`;
    await new Promise((resolve) => probe.close(resolve));
    const { error } = await settle(new sdk.HubClient({ baseUrl: `${origin}/api/v1`, ...credentials }).getStakeStatus(WALLET));
    const problem = connectionProblem(error, ["ECONNREFUSED"], origin, describe);
    expect(!problem, problem);
    return describe(error).slice(0, 200);
  });

  await check("a DNS failure → HubConnectionError ENOTFOUND naming the origin, not the query", async () => {
    const origin = "http://hub-e2e.invalid";
    const { error } = await settle(new sdk.HubClient({ baseUrl: `${origin}/api/v1`, ...credentials }).getStakeStatus(WALLET));
    const problem = connectionProblem(error, ["ENOTFOUND", "EAI_AGAIN"], origin, describe);
    expect(!problem, problem);
    return describe(error).slice(0, 200);
  });

  const silent = await startSilentServer();
  try {
    await check("a silent server on a read → HubTimeoutError (a HubConnectionError) naming the origin", async () => {
      const { error } = await settle(new sdk.HubClient({ baseUrl: `${silent.origin}/api/v1`, ...credentials, timeout: 300 }).getStakeStatus(WALLET));
      expect(error instanceof sdk.HubTimeoutError && error instanceof sdk.HubConnectionError, () => `got ${error ? describe(error) : "a result"}`);
      expect(error.origin === silent.origin && error.message.includes(silent.origin) && !error.message.includes(WALLET), () => `origin not named, or query leaked: ${describe(error)}`);
      return `${describe(error).slice(0, 160)}; ${silent.connections()} attempts`;
    });

    await check("a silent server on an award → HubTimeoutError that may have been applied (same ref is safe)", async () => {
      const server = new HubServerClient({ baseUrl: `${silent.origin}/api/v1`, ...credentials, secret, timeout: 300 });
      const { error } = await settle(server.awardPoints({ wallet: WALLET, amount: 1, ref: `silent:${Date.now()}` }));
      expect(error instanceof sdk.HubTimeoutError && saysMaybeApplied(error), () => `got ${error ? describe(error) : "a result"}`);
      return describe(error).slice(0, 200);
    });
  } finally {
    await silent.close();
  }

  const api = await startApiServer({ wsgi: true });
  try {
    await check("a connection reset after the write was applied (retry: 0): error says maybe applied; the same ref again credits once in all", async () => {
      const server = new HubServerClient({ baseUrl: api.baseUrl, ...credentials, secret, retry: 0 });
      const award = { wallet: WALLET, amount: 4, ref: `reset:${Date.now()}` };
      api.mock.loseNextWrites(1); // applied, then the socket is reset
      const { error } = await settle(server.awardPoints(award));
      const problem = connectionProblem(error, ["ECONNRESET"], api.origin, describe);
      const { value, error: again } = await settle(server.awardPoints(award));
      const credits = api.mock.ledger.filter((entry) => entry.ref === award.ref).length;
      expect(!again && value.duplicate === true && credits === 1, () => `same ref again: ${again ? describe(again) : JSON.stringify(value)}; ${credits} credits`);
      expect(!problem && saysMaybeApplied(error), () => problem || `not marked as maybe applied: ${describe(error)}`);
      return `${describe(error).slice(0, 200)}; then duplicate: true, 1 credit`;
    });

    await check("a connection reset after the write was applied (default retries): the retry is a duplicate, one credit", async () => {
      const server = new HubServerClient({ baseUrl: api.baseUrl, ...credentials, secret });
      const award = { wallet: WALLET, amount: 5, ref: `reset-retried:${Date.now()}` };
      const before = api.log.length;
      api.mock.loseNextWrites(1);
      const { value, error } = await settle(server.awardPoints(award));
      const credits = api.mock.ledger.filter((entry) => entry.ref === award.ref).length;
      const attempts = api.log.slice(before).length;
      expect(!error && value.duplicate === true && credits === 1, () => `${error ? describe(error) : JSON.stringify(value)}; ${credits} credits, ${attempts} attempts`);
      return `${attempts} attempts, answer duplicate: true, balance ${value.balance}, 1 credit`;
    });
  } finally {
    await api.close();
  }
}
