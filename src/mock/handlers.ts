import { http, HttpResponse, type JsonBodyType, type RequestHandler } from "msw";
import { readAwardBody } from "./award-body";
import { CORS_HEADERS, errorResponse, proxyPage } from "./responses";
import type { MockState } from "./state";
import type { HubMockOptions, MockHub } from "./types";
import type { HubOperation } from "../core/types/schemas";
import { schemaDrift } from "./schema-drift";
import { verifySignature } from "./verify-signature";

export type MockSettings = Required<Omit<HubMockOptions, "hubs" | "keys" | "clockOffsetMs" | "leaderboardFormat">> & {
  /** `leaderboardFormat: "array"`: the leaderboard answers its entries alone. */
  leaderboardAsArray: boolean;
};

// The spec's ±300 s, written here again on purpose (not the SDK's SIGNATURE_WINDOW_SECONDS): the
// mock checks the SDK from the spec with its own code, so a wrong window in the SDK must fail here.
const TIMESTAMP_TOLERANCE_SECONDS = 300;

interface RouteContext {
  request: Request;
  body: string;
  url: URL;
  params: Record<string, string | readonly string[] | undefined>;
}

interface AuthedContext extends RouteContext {
  slug: string;
  hub: MockHub;
  storedKey: Promise<string>;
}

/** The spec's endpoints as MSW handlers, around one shared {@link MockState}. */
export function createHandlers(state: MockState, settings: MockSettings): RequestHandler[] {
  const base = settings.baseUrl;
  const fail = (status: number, code: string, message: string) => errorResponse(settings.errorFormat, status, code, message);
  /**
   * A success body, checked against the app's schema for its operation. A drift is answered 501
   * (a 5xx the client does not retry), so the call that met it fails at once, naming every field.
   */
  const serve = async (operation: HubOperation, body: JsonBodyType) => {
    const drift = await schemaDrift(settings.schemas, operation, body);
    return drift ? HttpResponse.json({ error: { code: "mock_schema_drift", message: drift } }, { status: 501 }) : HttpResponse.json(body);
  };

  /** Records the request, applies injected faults, then answers with CORS, Date and x-request-id. */
  const route =
    (resolve: (context: RouteContext) => Response | Promise<Response>) =>
    async ({ request, params }: { request: Request; params: RouteContext["params"] }) => {
      const body = await request.clone().text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      state.requests.push({ method: request.method, url: request.url, headers, body });
      const response = (await injectedFault()) ?? (await resolve({ request, body, params, url: new URL(request.url) }));
      return decorate(response);
    };

  const injectedFault = async () => {
    const canned = state.faults.canned.shift();
    if (canned) {
      const status = canned.status ?? 503;
      const headers = { "content-type": canned.contentType ?? "text/html", ...canned.headers };
      return new HttpResponse(canned.body ?? proxyPage(status), { status, headers });
    }
    const retryAfter = state.faults.rateLimits.shift();
    if (retryAfter === undefined) return undefined;
    const response = fail(429, "rate_limited", "Too many requests; slow down.");
    const value =
      settings.retryAfterFormat === "seconds" ? String(retryAfter) : new Date(state.now() + retryAfter * 1000).toUTCString();
    response.headers.set("retry-after", value);
    return response;
  };

  const decorate = (response: Response) => {
    if (response.type === "error") return response; // a network error has no headers
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    // A cached copy carries the Date of when it was stored and its Age (RFC 9111).
    const age = state.faults.cachedAges.shift();
    if (settings.sendDateHeader) response.headers.set("date", new Date(state.now() - (age ?? 0) * 1000).toUTCString());
    if (age !== undefined) response.headers.set("age", String(age));
    response.headers.set("x-request-id", state.nextRequestId());
    return response;
  };

  /** 401 for a missing or unknown key, 404 for an unknown hub, 403 for a key of another hub. */
  const authed = (resolve: (context: AuthedContext) => Response | Promise<Response>) => (context: RouteContext) => {
    const clientId = context.request.headers.get("x-api-key");
    if (!clientId) return fail(401, "missing_api_key", "The x-api-key header is required.");
    const key = state.key(clientId);
    if (!key) return fail(401, "invalid_api_key", "Unknown API key.");
    const slug = String(context.params.slug);
    const hub = state.hubs[slug];
    if (!hub) return fail(404, "hub_not_found", `No hub "${slug}".`);
    if (key.hub !== slug) return fail(403, "forbidden", "This API key is scoped to another hub.");
    return resolve({ ...context, slug, hub, storedKey: key.storedKey });
  };

  const discovery = () =>
    serve("discovery", {
      name: "Public Hub API",
      version: "v1",
      baseUrl: base,
      endpoints: [
        { method: "GET", path: "/hub/{slug}", auth: "key" },
        { method: "GET", path: "/hub/{slug}/leaderboard", auth: "key", query: ["limit"] },
        { method: "GET", path: "/hub/{slug}/holder/{wallet}", auth: "key" },
        { method: "GET", path: "/hub/{slug}/stake-status", auth: "key", query: ["wallet"] },
        { method: "POST", path: "/hub/{slug}/bits/earn", auth: "key+signature" },
      ],
    });

  const ranked = (hub: MockHub) =>
    [...hub.stakers].sort((a, b) => b.staked - a.staked).map((staker, index) => ({ rank: index + 1, ...staker }));

  const leaderboard = ({ slug, hub, url }: AuthedContext) => {
    const asked = url.searchParams.get("limit");
    // Not a positive integer: the server default applies (the spec lists no 400 here).
    const limit = asked && /^[1-9]\d*$/.test(asked) ? Math.min(Number(asked), settings.leaderboardLimit.max) : settings.leaderboardLimit.default;
    const entries = ranked(hub).slice(0, limit);
    return serve("leaderboard", settings.leaderboardAsArray ? entries : { hub: slug, limit, total: hub.stakers.length, entries });
  };

  const holder = ({ slug, hub, params }: AuthedContext) => {
    const wallet = String(params.wallet);
    const tokens = hub.holders?.[wallet];
    return serve("holder", { hub: slug, wallet, holder: tokens !== undefined, tokens: tokens ?? 0, bits: state.balanceOf(slug, wallet) });
  };

  const stakeStatus = ({ slug, hub, url }: AuthedContext) => {
    const wallet = url.searchParams.get("wallet");
    if (!wallet) return fail(400, "missing_wallet", "The wallet query parameter is required.");
    const row = ranked(hub).find((entry) => entry.wallet === wallet);
    return serve("stakeStatus", { hub: slug, wallet, staking: row !== undefined, staked: row?.staked ?? 0, rank: row?.rank ?? null });
  };

  const earn = async ({ request, body, url, slug, storedKey }: AuthedContext) => {
    const refuse = (code: string, message: string) => fail(settings.signatureFailureStatus, code, message);
    const timestamp = request.headers.get("x-api-timestamp");
    const signature = request.headers.get("x-api-signature");
    if (!timestamp || !/^\d+$/.test(timestamp)) return refuse("invalid_timestamp", "x-api-timestamp must be Unix seconds.");
    const serverSeconds = Math.floor(state.now() / 1000);
    if (Math.abs(serverSeconds - Number(timestamp)) > TIMESTAMP_TOLERANCE_SECONDS) {
      return refuse("timestamp_out_of_window", `Timestamp ${timestamp} is not within 300 s of server time ${serverSeconds}.`);
    }
    if (!signature) return refuse("missing_signature", "x-api-signature is required.");
    const valid = await verifySignature({ storedKey: await storedKey, signature, timestamp, method: request.method, path: url.pathname, body });
    if (!valid) return refuse("invalid_signature", "The signature does not match.");
    if (!request.headers.get("content-type")?.includes("application/json")) {
      return fail(400, "unsupported_content_type", "The body must be application/json.");
    }
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return fail(400, "invalid_json", "The body is not valid JSON.");
    }
    const award = readAwardBody(json);
    if (typeof award === "string") return fail(400, "invalid_award", award);
    const earlier = state.awardFor(slug, award.ref);
    const amount = "amount" in award ? award.amount : (settings.kindPoints[award.kind] ?? 1);
    const answer = earlier
      ? { ...earlier, balance: state.balanceOf(slug, award.wallet), duplicate: true }
      : { ...state.applyAward({ hub: slug, ...award, amount }), duplicate: false };
    // The write is done (or was done before); only its answer may be lost on the way back.
    const lost = state.faults.lostWrites.shift();
    if (lost === "network-error") return HttpResponse.error();
    if (lost !== undefined) return new HttpResponse(proxyPage(lost), { status: lost, headers: { "content-type": "text/html" } });
    return serve("award", answer);
  };

  const preflight = () => new HttpResponse(null, { status: 204, headers: CORS_HEADERS });

  return [
    http.options(`${base}`, preflight),
    http.options(`${base}/*`, preflight),
    http.get(`${base}`, route(discovery)), // MSW matches it with a trailing slash too
    http.get(`${base}/hub/:slug`, route(authed(({ slug, hub }) => serve("hub", { slug, ...hub.config })))),
    http.get(`${base}/hub/:slug/leaderboard`, route(authed(leaderboard))),
    http.get(`${base}/hub/:slug/holder/:wallet`, route(authed(holder))),
    http.get(`${base}/hub/:slug/stake-status`, route(authed(stakeStatus))),
    http.post(`${base}/hub/:slug/bits/earn`, route(authed(earn))),
    http.all(`${base}/*`, route(() => fail(404, "not_found", "No such endpoint."))),
  ];
}
