// The smoke checks every runtime runs against the real API server, through the packed package.
// Plain JavaScript so that Node, Bun, Deno and a worker bundle all run the same file.

const VECTOR = {
  secret: "sk_live_abc",
  timestamp: "1700000000",
  method: "POST",
  path: "/api/v1/hub/alpha/bits/earn",
  body: '{"wallet":"0xabc","amount":10,"reason":"quest","ref":"r1"}',
  signature: "f6792fd401c14ccfe076495ee0fdf81c2f27d63da3fd5105ee59d26e77b5c5bb",
};
const WALLET = "0x1111111111111111111111111111111111111111";

export async function runChecks({ sdk, server, baseUrl, runtime, expectSigner }) {
  const results = [];
  const assert = (condition, message) => {
    if (!condition) throw new Error(message);
  };
  const check = async (name, run) => {
    try {
      await run();
      results.push({ name, ok: true });
    } catch (error) {
      results.push({ name, ok: false, error: String(error && error.stack ? error.stack : error) });
    }
  };
  const options = { baseUrl, clientId: "pk_alpha_demo", hub: "alpha" };
  const hub = new sdk.HubClient(options);

  await check("discover", async () => assert((await hub.discover()).version === "v1", "no v1 discovery"));
  await check("getHub", async () => assert((await hub.getHub()).name === "Alpha Hub", "wrong hub"));
  await check("getLeaderboard", async () => assert(sdk.leaderboardRows(await hub.getLeaderboard({ limit: 2 })).length === 2, "not 2 rows"));
  await check("getHolder", async () => assert((await hub.getHolder(WALLET)).holder === true, "not a holder"));
  await check("getStakeStatus", async () => assert((await hub.getStakeStatus(WALLET)).staked === 52000, "wrong stake"));
  await check("403 for another hub's key", async () => {
    const error = await new sdk.HubClient({ ...options, clientId: "pk_beta_demo" }).getHub().catch((e) => e);
    assert(error instanceof sdk.ForbiddenError && error.status === 403, `expected ForbiddenError, got ${error}`);
  });
  await check("validation error, nothing sent", async () => {
    const error = await hub.getLeaderboard({ limit: 1.5 }).catch((e) => e);
    assert(error instanceof sdk.HubValidationError, `expected HubValidationError, got ${error}`);
  });
  if (server) {
    await check(`signer is ${expectSigner}`, async () => assert(server.signerImplementation === expectSigner, `got ${server.signerImplementation}`));
    await check("signs a shared vector", async () => {
      const { signature, ...input } = VECTOR;
      assert((await server.signRequest(input)) === signature, "signature mismatch");
    });
    const backend = new server.HubServerClient({ ...options, secret: "demo-secret-alpha" });
    const award = { wallet: WALLET, amount: 7, reason: "smoke", ref: `smoke:${runtime}:${Date.now()}` };
    await check("signed award", async () => assert((await backend.awardPoints(award)).duplicate === false, "not applied"));
    await check("replay applied once", async () => {
      const replay = await backend.awardPoints(award);
      assert(replay.duplicate === true && replay.awarded === 7, `replay: ${JSON.stringify(replay)}`);
    });
  }
  return results;
}
