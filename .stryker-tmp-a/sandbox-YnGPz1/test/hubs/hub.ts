// @ts-nocheck
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { http, HttpResponse, type RequestHandler } from "msw";

/**
 * The core of the project's own test hubs: the spec's five endpoints (and discovery), written from
 * the spec alone, sharing no code with `src/mock` or the SDK. Each dialect (ietf-hub.ts,
 * stripe-hub.ts, rails-hub.ts) only says how answers look; what is checked and stored is here.
 */

export interface HubOptions {
  /** @default a dialect's own, e.g. "https://ietf.hub.test/api/v1" */
  baseUrl?: string;
  /** @default "pk_test" */
  clientId?: string;
  /** @default "sk_test_secret" */
  secret?: string;
  /** The key's hub. @default "alpha" */
  hub?: string;
  /** Hubs that exist but the key may not touch (answered 403); any other slug is 404. @default ["beta"] */
  otherHubs?: string[];
  /** Requests allowed per window (every request but preflights counts), or `false` for none. @default { limit: 20, windowMs: 1000 } */
  rateLimit?: { limit: number; windowMs: number } | false;
  /** Whether a 429 carries `Retry-After`. @default true */
  retryAfter?: boolean;
  /** The server's clock in ms (tests move it by hand). @default Date.now */
  now?: () => number;
  /** Number of stakers on the leaderboard. @default 25 */
  stakers?: number;
}

/** One award row as the hub stores it. */
export interface Award {
  id: string;
  wallet: string;
  amount: number;
  reason: string;
  ref: string;
  balance: number;
  created_at: string;
}

/** One request as the hub saw it, with the status it answered (0: the answer was lost). */
export interface SeenRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

export type ErrorKind =
  | "unauthorized"
  | "bad-signature"
  | "forbidden"
  | "not-found"
  | "invalid-award"
  | "invalid-query"
  | "rate-limited";

/** A refusal, before the dialect words it. */
export interface HubError {
  kind: ErrorKind;
  status: number;
  title: string;
  detail: string;
  /** Field errors: the field's name in the request and why. */
  fields?: Array<{ field: string; detail: string }>;
}

export interface Limits {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
  /** Epoch seconds of the reset. */
  resetAt: number;
}

/** How one hub's answers look; the checks and the store are the same for all. */
export interface Dialect {
  baseUrl: string;
  requestIdHeader: string;
  /** A success body around `data` (`list` rows for the leaderboard). */
  success(data: Record<string, unknown>, context: { requestId: string; kind: "object" | "list" }): unknown;
  /** The list the leaderboard answers, from its rows (then wrapped by `success` as a list). */
  list(rows: Array<Record<string, unknown>>, limit: number, total: number): Record<string, unknown>;
  error(error: HubError, requestId: string): Response;
  /** A used `ref` asked again with the same parameters; `original` is the body first answered. */
  duplicate(original: unknown, award: Award, requestId: string): Response;
  /** A used `ref` asked again with other parameters. */
  conflict(ref: string, requestId: string): Response;
  rateHeaders(limits: Limits): Record<string, string>;
}

const WINDOW_SECONDS = 300;
const MAX_AMOUNT = 1_000_000;
const KIND_POINTS = 5; // the spec's other award shape (`wallet`, `kind`, `ref`) has no amount: a fixed one

export const TITLES: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 409: "Conflict", 422: "Unprocessable Content", 429: "Too Many Requests" };

export type TestHub = ReturnType<typeof createHub>;

export function createHub(dialect: Dialect, options: HubOptions = {}) {
  const base = (options.baseUrl ?? dialect.baseUrl).replace(/\/+$/, "");
  const clientId = options.clientId ?? "pk_test";
  const secret = options.secret ?? "sk_test_secret";
  const slug = options.hub ?? "alpha";
  const otherHubs = options.otherHubs ?? ["beta"];
  const rate = options.rateLimit === undefined ? { limit: 20, windowMs: 1000 } : options.rateLimit;
  const now = options.now ?? Date.now;
  // The server keeps sha256(secret) only, and signs with its hex string as the HMAC key (spec part 5).
  const signingKey = createHash("sha256").update(secret, "utf8").digest("hex");
  const stakers = Array.from({ length: options.stakers ?? 25 }, (_, i) => ({ wallet: `0xstaker${String(i + 1).padStart(2, "0")}`, staked: 1000 * (25 - i) + 7 }));

  const ledger: Award[] = [];
  const requests: SeenRequest[] = [];
  const balances = new Map<string, number>();
  /** By ref: what was asked (to tell a duplicate from a conflict), the award and the body first answered. */
  const byRef = new Map<string, { params: string; award: Award; body: unknown }>();
  let lostWrites = 0;
  let sequence = 0;
  let window = { start: 0, used: 0 };

  /** A fixed window: `limit` requests per `windowMs`, counted from the window's aligned start. */
  const take = (): Limits | undefined => {
    if (!rate) return undefined;
    const at = now();
    const start = Math.floor(at / rate.windowMs) * rate.windowMs;
    if (start !== window.start) window = { start, used: 0 };
    window.used++;
    const end = start + rate.windowMs;
    return {
      limit: rate.limit,
      remaining: Math.max(0, rate.limit - window.used),
      resetSeconds: Math.max(1, Math.ceil((end - at) / 1000)),
      windowSeconds: Math.ceil(rate.windowMs / 1000),
      resetAt: Math.ceil(end / 1000),
    };
  };

  const refuse = (kind: ErrorKind, status: number, detail: string, fields?: HubError["fields"]): HubError => ({
    kind,
    status,
    title: TITLES[status] ?? "Error",
    detail,
    ...(fields ? { fields } : {}),
  });

  const verified = (request: Request, path: string, body: string): HubError | undefined => {
    const timestamp = request.headers.get("x-api-timestamp") ?? "";
    const signature = request.headers.get("x-api-signature") ?? "";
    if (!/^\d+$/.test(timestamp) || Math.abs(Number(timestamp) - Math.floor(now() / 1000)) > WINDOW_SECONDS) {
      return refuse("bad-signature", 401, "x-api-timestamp is missing or not within 300 seconds of server time");
    }
    const expected = createHmac("sha256", signingKey).update(`${timestamp}.${request.method.toUpperCase()}.${path}.${body}`, "utf8").digest();
    const given = /^[0-9a-f]{64}$/.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0);
    return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : refuse("bad-signature", 401, "x-api-signature does not match");
  };

  /** The award body (either shape of the spec), or the fields that are wrong. */
  const readAward = (body: string): { wallet: string; amount: number; reason: string; ref: string } | HubError => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return refuse("invalid-award", 400, "the body is not JSON");
    }
    const award = (typeof json === "object" && json !== null ? json : {}) as Record<string, unknown>;
    const fields: Array<{ field: string; detail: string }> = [];
    const text = (field: string) => {
      if (typeof award[field] !== "string" || award[field] === "") fields.push({ field, detail: "must be a non-empty string" });
    };
    text("wallet");
    text("ref");
    if (award.kind !== undefined && award.amount === undefined) text("kind");
    else {
      const amount = award.amount;
      if (typeof amount !== "number" || !(amount > 0 && amount <= MAX_AMOUNT)) fields.push({ field: "amount", detail: "must be a number in (0, 1e6]" });
      if (typeof award.reason !== "string") fields.push({ field: "reason", detail: "must be a string" });
    }
    if (fields.length) return refuse("invalid-award", 400, fields.map((f) => `${f.field} ${f.detail}`).join("; "), fields);
    const kind = award.kind as string | undefined;
    return {
      wallet: award.wallet as string,
      amount: kind !== undefined && award.amount === undefined ? KIND_POINTS : (award.amount as number),
      reason: kind ?? (award.reason as string),
      ref: award.ref as string,
    };
  };

  const ranked = () => [...stakers].sort((a, b) => b.staked - a.staked).map((s, i) => ({ rank: i + 1, wallet: s.wallet, staked: s.staked }));

  const answer = async (request: Request, requestId: string, body: string): Promise<Response> => {
    const url = new URL(request.url);
    const path = url.pathname;
    const rest = decodeURIComponent(path).slice(new URL(base).pathname.length).replace(/\/+$/, "");
    const json = (data: Record<string, unknown>, kind: "object" | "list" = "object", status = 200) =>
      HttpResponse.json(dialect.success(data, { requestId, kind }) as Record<string, unknown>, { status });
    if (request.method === "GET" && rest === "") {
      return json({ name: "Public Hub API", version: "v1", endpoints: ["/hub/{slug}", "/hub/{slug}/leaderboard", "/hub/{slug}/holder/{wallet}", "/hub/{slug}/stake-status", "/hub/{slug}/bits/earn"] });
    }
    const key = request.headers.get("x-api-key");
    if (key !== clientId) return dialect.error(refuse("unauthorized", 401, key ? "unknown API key" : "x-api-key is required"), requestId);
    const match = /^\/hub\/([^/]+)(?:\/(leaderboard|holder|stake-status|bits\/earn))?(?:\/([^/]+))?$/.exec(rest);
    if (!match) return dialect.error(refuse("not-found", 404, `no route ${path}`), requestId);
    const [, hub, route, wallet] = match;
    if (hub !== slug) {
      return otherHubs.includes(hub!)
        ? dialect.error(refuse("forbidden", 403, `this key is scoped to hub ${slug}`), requestId)
        : dialect.error(refuse("not-found", 404, `no hub ${hub}`), requestId);
    }
    const get = request.method === "GET";
    if (get && route === undefined) return json({ slug, name: `Hub ${slug}`, token_symbol: "HUB", created_at: "2026-01-01T00:00:00Z" });
    if (get && route === "leaderboard") {
      const asked = url.searchParams.get("limit");
      const limit = asked && /^[1-9]\d*$/.test(asked) ? Math.min(Number(asked), 100) : 10;
      return json(dialect.list(ranked().slice(0, limit), limit, stakers.length), "list");
    }
    if (get && route === "holder" && wallet) {
      return json({ wallet, holder: stakers.some((s) => s.wallet === wallet), bits_balance: balances.get(wallet) ?? 0 });
    }
    if (get && route === "stake-status" && wallet === undefined) {
      const who = url.searchParams.get("wallet");
      if (!who) return dialect.error(refuse("invalid-query", 400, "wallet is required", [{ field: "wallet", detail: "is required" }]), requestId);
      const row = ranked().find((r) => r.wallet === who);
      return json({ wallet: who, staking: row !== undefined, staked: row?.staked ?? 0, rank: row?.rank ?? null });
    }
    if (request.method === "POST" && route === "bits/earn" && wallet === undefined) {
      const refused = verified(request, path, body) ?? (request.headers.get("content-type")?.includes("application/json") ? undefined : refuse("invalid-award", 400, "content-type must be application/json"));
      if (refused) return dialect.error(refused, requestId);
      const award = readAward(body);
      if ("kind" in award) return dialect.error(award, requestId);
      const params = JSON.stringify([award.wallet, award.amount, award.reason]);
      const earlier = byRef.get(award.ref);
      if (earlier) return earlier.params === params ? dialect.duplicate(earlier.body, earlier.award, requestId) : dialect.conflict(award.ref, requestId);
      const balance = (balances.get(award.wallet) ?? 0) + award.amount;
      balances.set(award.wallet, balance);
      const applied: Award = { id: `awd_${ledger.length + 1}`, ...award, balance, created_at: new Date(now()).toISOString() };
      ledger.push(applied);
      const original = dialect.success({ ...applied }, { requestId, kind: "object" });
      byRef.set(award.ref, { params, award: applied, body: original });
      if (lostWrites > 0) {
        lostWrites--;
        return HttpResponse.error(); // applied, and its answer lost on the way back
      }
      return HttpResponse.json(original as Record<string, unknown>);
    }
    return dialect.error(refuse("not-found", 404, `no route ${request.method} ${path}`), requestId);
  };

  const handle = async ({ request }: { request: Request }) => {
    const body = await request.clone().text();
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    const seen: SeenRequest = { method: request.method, path: new URL(request.url).pathname, headers, body, status: 0 };
    requests.push(seen);
    const requestId = `req_${++sequence}`;
    const limits = take();
    let response: Response;
    if (limits && window.used > limits.limit) {
      response = dialect.error(refuse("rate-limited", 429, `more than ${limits.limit} requests in ${limits.windowSeconds} s`), requestId);
      if (options.retryAfter !== false) response.headers.set("retry-after", String(limits.resetSeconds));
    } else response = await answer(request, requestId, body);
    if (response.type === "error") return response; // a lost answer has no headers
    seen.status = response.status;
    response.headers.set(dialect.requestIdHeader, requestId);
    for (const [name, value] of Object.entries(limits ? dialect.rateHeaders(limits) : {})) response.headers.set(name, value);
    return response;
  };

  const handlers: RequestHandler[] = [http.get(base, handle), http.all(`${base}/*`, handle)];

  return {
    handlers,
    baseUrl: base,
    clientId,
    secret,
    hub: slug,
    /** Applied awards, oldest first: a duplicate or a conflict adds nothing. */
    ledger: ledger as readonly Award[],
    /** Every request, oldest first, with the status it was answered. */
    requests: requests as readonly SeenRequest[],
    balanceOf: (wallet: string) => balances.get(wallet) ?? 0,
    /** The next `count` valid new awards are applied, then their answers lost (a network error). */
    loseNextWrites(count: number) {
      lostWrites += count;
    },
    reset() {
      ledger.length = 0;
      requests.length = 0;
      balances.clear();
      byRef.clear();
      lostWrites = 0;
      sequence = 0;
      window = { start: 0, used: 0 };
    },
  };
}
