// Shows what each test hub sends, raw, with plain fetch and a signature made here with node:crypto
// (no SDK): the reads, a signed award, its repeat, a conflict, an invalid body, a bad signature, an
// unknown hub, and the ledger. `node test/e2e/framework-hubs/show.mjs [express|fastify|nestjs]…`
import { createHash, createHmac } from "node:crypto";
import { CLIENT_ID, SECRET } from "./common.mjs";

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["express", "fastify", "nestjs"];
const INTERESTING = /^(content-type|x-request-id|x-correlation-id|ratelimit.*|x-ratelimit.*|retry-after)$/;

for (const name of names) {
  const { start } = await import(`./${name}.mjs`);
  const hub = await start({ port: 0 });
  console.log(`\n===== ${name} at ${hub.url}`);
  const show = async (what, path, init = {}) => {
    const response = await fetch(`${hub.url}${path}`, { ...init, headers: { "x-api-key": CLIENT_ID, ...init.headers } });
    const headers = [...response.headers].filter(([key]) => INTERESTING.test(key)).map(([key, value]) => `${key}: ${value}`);
    console.log(`--- ${what}: ${init.method ?? "GET"} ${path} → ${response.status}\n    ${headers.join("\n    ")}\n    ${await response.text()}`);
  };
  const signed = (body, secret = SECRET) => {
    const text = JSON.stringify(body);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const path = new URL(`${hub.url}/hub/alpha/bits/earn`).pathname;
    const key = createHash("sha256").update(secret).digest("hex");
    const signature = createHmac("sha256", key).update(`${timestamp}.POST.${path}.${text}`).digest("hex");
    return { method: "POST", headers: { "content-type": "application/json", "x-api-timestamp": timestamp, "x-api-signature": signature }, body: text };
  };
  await show("discovery", "");
  await show("hub", "/hub/alpha");
  await show("leaderboard", "/hub/alpha/leaderboard?limit=2");
  await show("holder", "/hub/alpha/holder/0x1111111111111111111111111111111111111111");
  await show("stake-status", "/hub/alpha/stake-status?wallet=0x2222222222222222222222222222222222222222");
  await show("stake-status without wallet", "/hub/alpha/stake-status");
  const award = { wallet: "0xabc", amount: 10, reason: "quest", ref: "show-1" };
  await show("award", "/hub/alpha/bits/earn", signed(award));
  await show("award again", "/hub/alpha/bits/earn", signed(award));
  await show("same ref, other amount", "/hub/alpha/bits/earn", signed({ ...award, amount: 11 }));
  await show("invalid award", "/hub/alpha/bits/earn", signed({ ...award, amount: -5, ref: "show-2" }));
  await show("bad signature", "/hub/alpha/bits/earn", signed({ ...award, ref: "show-3" }, "wrong"));
  await show("no key", "/hub/alpha", { headers: { "x-api-key": "" } });
  await show("unknown hub", "/hub/nope");
  await show("another hub", "/hub/beta");
  await show("no such route", "/nope");
  console.log(`--- ledger: ${JSON.stringify(await (await fetch(`${hub.origin}/__ledger`)).json())}`);
  await hub.stop();
}
