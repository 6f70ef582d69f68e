// The packed package behind a real nginx: gzip-encoded reads, signed awards whose signed path is
// the path the upstream saw, and nginx's own HTML 502 when the upstream is down.
import * as sdk from "public-hub-sdk";
import { HubServerClient } from "public-hub-sdk/server";
import { WALLET, credentials, saysMaybeApplied, secret } from "./expectations.mjs";

export async function nginxChecks({ check, expect, describe, api, nginx, downNginx }) {
  const baseUrl = `${nginx.origin}/api/v1`;

  await check(`nginx ${nginx.version}: gzip-encoded reads decoded`, async () => {
    const before = nginx.accessLog().length;
    const hub = new sdk.HubClient({ baseUrl, ...credentials });
    const name = (await hub.getHub()).name;
    const rows = sdk.leaderboardRows(await hub.getLeaderboard({ limit: 5 })).length;
    const holder = (await hub.getHolder(WALLET)).holder;
    const staked = (await hub.getStakeStatus(WALLET)).staked;
    expect(name === "Alpha Hub" && rows === 5 && holder === true && staked === 52000, `read ${JSON.stringify({ name, rows, holder, staked })}`);
    const reads = nginx.accessLog().slice(before);
    const gzipped = reads.filter((entry) => entry.split(" ")[3] === "gzip");
    expect(reads.length === 4 && gzipped.length === 4, `nginx access log: ${JSON.stringify(reads)}`);
    return `4 reads, all sent gzip-encoded by nginx (${reads[0]})`;
  });

  await check("nginx: signed awards, the signed path is the path the upstream saw; one ref credits once", async () => {
    const sent = [];
    const server = new HubServerClient({ baseUrl, ...credentials, secret, onRequest: (e) => e.type === "request" && sent.push(new URL(e.url).pathname) });
    const ref = `nginx:${Date.now()}`;
    const award = { wallet: WALLET, amount: 3, reason: "nginx", ref };
    const logStart = api.log.length;
    const first = await server.awardPoints(award).catch((error) => error);
    expect(!(first instanceof Error), () => `first award: ${describe(first)}`);
    const second = await server.awardPoints(award).catch((error) => error);
    expect(!(second instanceof Error), () => `second award: ${describe(second)}`);
    expect(first.duplicate === false && second.duplicate === true, `answers ${JSON.stringify([first, second])}`);
    const credits = api.mock.ledger.filter((entry) => entry.ref === ref).length;
    expect(credits === 1, `ledger has ${credits} credits for the ref`);
    const upstream = api.log.slice(logStart).filter((entry) => entry.method === "POST");
    const paths = upstream.map((entry) => entry.path);
    expect(paths.length === 2 && paths.every((path) => path === sent[0]) && sent.every((path) => path === sent[0]), `SDK signed ${JSON.stringify(sent)}, upstream saw ${JSON.stringify(paths)}`);
    expect(upstream.every((entry) => entry.contentLength !== undefined), `upstream POSTs without content-length: ${JSON.stringify(upstream)}`);
    return `signed and upstream path ${sent[0]}, credited once`;
  });

  await check("nginx: its own HTML 502 (upstream down) on a read → ServerError 502, body kept as text", async () => {
    const hub = new sdk.HubClient({ baseUrl: `${downNginx.origin}/api/v1`, ...credentials });
    const error = await hub.getHub().then(() => undefined, (e) => e);
    expect(error instanceof sdk.ServerError && error.status === 502, () => `got ${describe(error)}`);
    expect(typeof error.body === "string" && error.body.includes("nginx"), `body ${JSON.stringify(error.body)}`);
    return `${error.name} ${error.status}, ${downNginx.accessLog().length} attempts, body "${error.body.match(/<title>(.*)<\/title>/)?.[1]}"`;
  });

  await check("nginx: an award answered by nginx's 502 after retries → ServerError, mayHaveBeenApplied", async () => {
    const server = new HubServerClient({ baseUrl: `${downNginx.origin}/api/v1`, ...credentials, secret });
    const error = await server.awardPoints({ wallet: WALLET, amount: 1, ref: `nginx-down:${Date.now()}` }).then(() => undefined, (e) => e);
    expect(error instanceof sdk.ServerError && error.status === 502, () => `got ${describe(error)}`);
    expect(saysMaybeApplied(error), () => `not marked as maybe applied: ${describe(error)}`);
    return describe(error).slice(0, 200);
  });
}
