/**
 * A hub that enforces one credit per ref with a unique index, answering as its framework does:
 * Django REST framework (field lists, a 400 on `ref`, `{ "detail" }` refusals, Django's HTML 404) or
 * Hono (text refusals, @hono/zod-validator's 400, a 409 text on `ref`). Its own HMAC check
 * (node:crypto, from the spec), never the SDK's signer; its ledger is the truth tests compare to.
 */
import { createHmac } from "node:crypto";
import { http, HttpResponse } from "msw";
import { SIGNING_KEY } from "./server-client";

export const UNIQUE_BASE = "https://unique-hub.test/api/v1";
export const UNIQUE_WALLET = "0x7777777777777777777777777777777777777777";
export type Dialect = "drf" | "hono";

export function uniqueIndexHub(dialect: Dialect, BASE = UNIQUE_BASE) {
  const ledger = new Map<string, { wallet?: unknown; amount?: unknown }>();
  const refuse = (status: number, message: string) => (dialect === "drf" ? HttpResponse.json({ detail: message }, { status }) : new HttpResponse(message, { status, headers: { "content-type": "text/plain; charset=UTF-8" } }));
  const fieldErrors = (fields: Record<string, string>) =>
    dialect === "drf"
      ? HttpResponse.json(Object.fromEntries(Object.entries(fields).map(([name, message]) => [name, [message]])), { status: 400 })
      : HttpResponse.json({ success: false, error: { name: "ZodError", message: JSON.stringify(Object.entries(fields).map(([name, message]) => ({ code: "custom", path: [name], message })), null, 2) } }, { status: 400 });
  const keyed = (handler: Parameters<typeof http.get>[1]): Parameters<typeof http.get>[1] => (info) => (info.request.headers.get("x-api-key") === "pk_alpha_demo" ? handler(info) : refuse(401, "Invalid API key."));
  const handlers = [
    http.get(BASE, () => HttpResponse.json({ name: "Unique Hub", version: "v1" })),
    http.get(`${BASE}/hub/alpha`, keyed(() => HttpResponse.json({ slug: "alpha", name: "Alpha" }))),
    http.get(`${BASE}/hub/alpha/leaderboard`, keyed(() => HttpResponse.json({ count: 2, next: null, previous: null, results: [{ rank: 1, wallet: UNIQUE_WALLET, staked: 5 }, { rank: 2, wallet: "0x1", staked: 1 }] }))),
    http.get(`${BASE}/hub/alpha/holder/:wallet`, keyed(({ params }) => HttpResponse.json({ wallet: params.wallet, bits: 0 }))),
    http.get(`${BASE}/hub/alpha/stake-status`, keyed(() => HttpResponse.json({ staked: 0 }))),
    http.post(`${BASE}/hub/alpha/bits/earn`, keyed(async ({ request }) => {
      const body = await request.text();
      const timestamp = request.headers.get("x-api-timestamp") ?? "";
      const expected = createHmac("sha256", SIGNING_KEY).update(`${timestamp}.POST.${new URL(request.url).pathname}.${body}`).digest("hex");
      if (request.headers.get("x-api-signature") !== expected) return refuse(dialect === "drf" ? 403 : 401, "The signature does not match.");
      const award = JSON.parse(body) as { wallet?: unknown; amount?: unknown; ref?: unknown };
      const problems: Record<string, string> = {};
      if (typeof award.wallet !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(award.wallet)) problems.wallet = "Enter a valid value.";
      if (!Number.isInteger(award.amount) || (award.amount as number) < 1) problems.amount = "A valid integer is required.";
      if (Object.keys(problems).length > 0) return fieldErrors(problems);
      if (ledger.has(String(award.ref))) {
        return dialect === "drf" ? HttpResponse.json({ ref: ["award with this ref already exists."] }, { status: 400 }) : new HttpResponse(`Award with ref ${String(award.ref)} already exists`, { status: 409, headers: { "content-type": "text/plain; charset=UTF-8" } });
      }
      ledger.set(String(award.ref), award);
      return HttpResponse.json({ id: ledger.size, ...award }, { status: 201 });
    })),
    http.get(`${BASE}/*`, () => (dialect === "drf" ? HttpResponse.html("\n<!doctype html>\n<html lang=\"en\">\n<head>\n  <title>Not Found</title>\n</head>\n<body>\n  <h1>Not Found</h1><p>The requested resource was not found on this server.</p>\n</body>\n</html>\n", { status: 404 }) : new HttpResponse("404 Not Found", { status: 404 }))),
  ];
  return { handlers, ledger };
}

