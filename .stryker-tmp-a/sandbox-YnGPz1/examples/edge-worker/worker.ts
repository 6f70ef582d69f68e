/**
 * An edge worker (Cloudflare Workers style) awarding a daily-login bonus:
 * `POST /daily-login` with `{ "wallet" }`. Bundlers targeting workerd resolve
 * `public-hub-sdk/server` to its WebCrypto build. Secrets come from the worker's environment.
 */
// @ts-nocheck

import { HubServerClient, RateLimitError } from "public-hub-sdk/server";

export interface Env {
  HUB_BASE_URL: string;
  HUB_CLIENT_ID: string;
  HUB_SLUG: string;
  HUB_SECRET: string;
}

// One client per isolate: the signing key is derived once, not per request.
let client: HubServerClient | undefined;
const hubFor = (env: Env) =>
  (client ??= new HubServerClient({ baseUrl: env.HUB_BASE_URL, clientId: env.HUB_CLIENT_ID, hub: env.HUB_SLUG, secret: env.HUB_SECRET }));

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/daily-login") return new Response("not found", { status: 404 });
    const { wallet } = (await request.json().catch(() => ({}))) as { wallet?: string };
    const day = new Date().toISOString().slice(0, 10);
    try {
      const result = await hubFor(env).awardPoints({ wallet: wallet ?? "", kind: "daily-login", ref: `login-${day}:${wallet}` });
      return Response.json({ day, duplicate: result.duplicate === true, balance: result.balance });
    } catch (error) {
      if (error instanceof RateLimitError) return Response.json({ error: "busy" }, { status: 503, headers: { "retry-after": String(Math.ceil((error.retryAfterMs ?? 1_000) / 1000)) } });
      return Response.json({ error: error instanceof Error ? error.message : "failed" }, { status: 400 });
    }
  },
};

/** For tests: forget the cached client. */
export const resetWorker = () => {
  client = undefined;
};
