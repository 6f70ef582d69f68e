import { http, HttpResponse, type JsonBodyType, type RequestHandler } from "msw";
import { readAwardBody } from "./award-body";
import type { HubSignal } from "../core/types/profile";
import type { HubOperation } from "../core/types/schemas";
import { leaderboardPage } from "./leaderboard";
import { CORS_HEADERS, errorResponse, proxyPage, rateLimitHeaders, signalResponse, type FieldError } from "./responses";
import type { MockSettings } from "./settings";
import type { MockState } from "./state";
import type { AwardRecord, MockAnswerContext, MockHub } from "./types";
import { schemaDrift } from "./schema-drift";
import { verifySignature } from "./verify-signature";

const AWARD_FIELDS = /^(wallet|ref|amount|kind|reason) /;

// The spec's ±300 s, written here again on purpose (not the SDK's SIGNATURE_WINDOW_SECONDS): the
// mock checks the SDK from the spec with its own code, so a wrong window in the SDK must fail here.
const TIMESTAMP_TOLERANCE_SECONDS = 300;

interface RouteContext {
  request: Request;
  requestId: string;
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
  const problems = `${new URL(base).origin}/problems`;
  const fail = (status: number, code: string, message: string, fields?: FieldError[]) => errorResponse(settings.errorFormat, status, code, message, fields, problems);
  const signalled = (signal: HubSignal, code: string, message: string) => signalResponse(settings.errorFormat, signal, code, message, problems);
  const rateStyle = settings.rateLimit === undefined ? "none" : settings.rateLimitHeaders.headers;
  const { duplicate, conflict } = settings.award;
  const signalHeaders = [duplicate, conflict].flatMap((signal) => (signal?.header ? [signal.header.name] : []));
  const exposed = ["Date, Age, Retry-After, Location", ...(settings.requestIdHeader ? [settings.requestIdHeader] : []), ...Object.keys(rateLimitHeaders(rateStyle, 1, 0, 0, 0)), ...signalHeaders].join(", ");

  /**
   * A success: the app's own shape for the operation when it gave one (`responses`), checked
   * against its schema, then wrapped in the `envelope`. A drift is answered 501 (a 5xx the client
   * does not retry), so the call that met it fails at once, naming every field.
   */
  const serve = async (operation: HubOperation, own: unknown, context: Pick<MockAnswerContext, "hub" | "url" | "award" | "duplicate"> & { requestId: string }, init?: ResponseInit) => {
    const custom = settings.responses[operation];
    const { requestId, ...given } = context;
    const body =
      typeof custom === "function"
        ? await (custom as (context: MockAnswerContext) => unknown)({ ...given, body: own, balanceOf: (wallet) => state.balanceOf(context.hub ?? "", wallet), ledger: state.ledger })
        : custom === undefined ? own : custom;
    const drift = await schemaDrift(settings.schemas, operation, body);
    if (drift) return HttpResponse.json({ error: { code: "mock_schema_drift", message: drift } }, { status: 501 });
    // A 204 (an award's status may be) has no body.
    if (init?.status === 204) return new HttpResponse(null, init);
    return HttpResponse.json((settings.envelope === undefined ? body : { [settings.envelope]: body, meta: { request_id: requestId } }) as JsonBodyType, init);
  };

  /** Records the request, applies the rate limit and injected faults, then answers with CORS, Date, the request id and rate-limit fields. */
  const route =
    (resolve: (context: RouteContext) => Response | Promise<Response>) =>
    async ({ request, params }: { request: Request; params: RouteContext["params"] }) => {
      const body = await request.clone().text();
      const headers: Record<string, string> = {};
      request.headers.forEach((value, name) => (headers[name] = value));
      if (state.requests.push({ method: request.method, url: request.url, headers, body }) > settings.requestLog) state.requests.shift();
      const window = settings.rateLimit === undefined ? undefined : state.countRequest();
      const limited = window && window.used > settings.rateLimit! ? tooMany(Math.ceil((window.resetAt - state.now()) / 1000)) : undefined;
      const requestId = state.nextRequestId();
      const response = limited ?? (await injectedFault()) ?? (await resolve({ request, requestId, body, params, url: new URL(request.url) }));
      if (response.type !== "error" && window) {
        for (const [name, value] of Object.entries(rateLimitHeaders(rateStyle, settings.rateLimit!, window.used, window.resetAt, state.now(), settings.rateLimitHeaders))) response.headers.set(name, value);
      }
      return decorate(response, requestId);
    };

  const tooMany = (retryAfter: number) => {
    const response = fail(429, "rate_limited", "Too many requests; slow down.");
    const value =
      settings.retryAfterFormat === "seconds" ? String(retryAfter) : new Date(state.now() + retryAfter * 1000).toUTCString();
    response.headers.set("retry-after", value);
    return response;
  };

  const injectedFault = async () => {
    const canned = state.faults.canned.shift();
    if (canned) {
      const status = canned.status ?? 503;
      const headers = { "content-type": canned.contentType ?? "text/html", ...canned.headers };
      return new HttpResponse(canned.body ?? proxyPage(status), { status, headers });
    }
    const retryAfter = state.faults.rateLimits.shift();
    return retryAfter === undefined ? undefined : tooMany(retryAfter);
  };

  const decorate = (response: Response, requestId: string) => {
    if (response.type === "error") return response; // a network error has no headers
    for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
    response.headers.set("access-control-expose-headers", exposed);
    // A cached copy carries the Date of when it was stored and its Age (RFC 9111).
    const age = state.faults.cachedAges.shift();
    if (settings.sendDateHeader) response.headers.set("date", new Date(state.now() - (age ?? 0) * 1000).toUTCString());
    if (age !== undefined) response.headers.set("age", String(age));
    if (settings.requestIdHeader) response.headers.set(settings.requestIdHeader, requestId);
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

  const discovery = ({ url, requestId }: RouteContext) =>
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
    }, { hub: undefined, url, requestId });

  const ranked = (hub: MockHub) =>
    [...hub.stakers].sort((a, b) => b.staked - a.staked).map((staker, index) => ({ rank: index + 1, ...staker }));

  const leaderboard = ({ slug, hub, url, requestId }: AuthedContext) => {
    const page = leaderboardPage(settings, slug, ranked(hub), url);
    if ("refused" in page) return fail(400, "invalid_page", page.refused, [{ field: page.field, detail: "is not a page of this leaderboard", in: "query" }]);
    return serve("leaderboard", page.body, { hub: slug, url, requestId }, page.next === undefined ? undefined : { headers: { link: `<${page.next}>; rel="next"` } });
  };

  const holder = ({ slug, hub, params, url, requestId }: AuthedContext) => {
    const wallet = String(params.wallet);
    const tokens = hub.holders?.[wallet];
    return serve("holder", { hub: slug, wallet, holder: tokens !== undefined, tokens: tokens ?? 0, bits: state.balanceOf(slug, wallet) }, { hub: slug, url, requestId });
  };

  const stakeStatus = ({ slug, hub, url, requestId }: AuthedContext) => {
    const wallet = url.searchParams.get("wallet");
    if (!wallet) return fail(400, "missing_wallet", "The wallet query parameter is required.", [{ field: "wallet", detail: "is required", in: "query" }]);
    const row = ranked(hub).find((entry) => entry.wallet === wallet);
    return serve("stakeStatus", { hub: slug, wallet, staking: row !== undefined, staked: row?.staked ?? 0, rank: row?.rank ?? null }, { hub: slug, url, requestId });
  };

  const earn = async ({ request, requestId, body, url, slug, storedKey }: AuthedContext) => {
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
    if (typeof award === "string") {
      const fields = award.split("; ").filter((part) => AWARD_FIELDS.test(part)).map((part) => {
        const field = part.slice(0, part.indexOf(" "));
        // A field is named only in an object: readAwardBody refuses any other body as a whole.
        return { field, detail: part.slice(field.length + 1), input: (json as Record<string, unknown>)[field] };
      });
      return fail(400, "invalid_award", award, fields);
    }
    const earlier = state.awardFor(slug, award.ref);
    const amount = "amount" in award ? award.amount : (settings.kindPoints[award.kind] ?? 1);
    if (earlier && conflict && !sameAward(earlier.record, { ...award, amount })) {
      return signalled(conflict, "ref_conflict", `ref ${award.ref} is already used by another award with different parameters.`);
    }
    if (!earlier) state.applyAward({ hub: slug, ...award, amount });
    const { answer, record } = earlier ?? state.awardFor(slug, award.ref)!;
    // The write is done (or was done before); only its answer may be lost on the way back.
    const lost = state.faults.lostWrites.shift();
    if (lost === "network-error") return HttpResponse.error();
    if (lost !== undefined) return new HttpResponse(proxyPage(lost), { status: lost, headers: { "content-type": "text/html" } });
    const context = { hub: slug, url, requestId, award: record, duplicate: earlier !== undefined };
    const { field, header } = duplicate;
    // A fresh award says the opposite of a boolean flag (`duplicate: false`).
    if (!earlier) return serve("award", typeof field?.value === "boolean" ? { ...answer, [field.name]: !field.value } : answer, context, { status: settings.award.status });
    if (duplicate.status < 200 || duplicate.status > 299) return signalled(duplicate, "duplicate_ref", `ref ${award.ref} already exists: the award was applied once.`);
    // A hub that flags the repeat in its body writes that body now (the balance of now); one that
    // marks it by status or header alone replays the first body, as Stripe does.
    const replayed = field ? { ...answer, balance: state.balanceOf(slug, award.wallet), [field.name]: field.value } : answer;
    return serve("award", replayed, context, { status: duplicate.status, ...(header && { headers: { [header.name]: header.value } }) });
  };

  /** The same award again: the same wallet, amount and reason (or kind). */
  const sameAward = (earlier: AwardRecord, award: Omit<AwardRecord, "hub" | "at">) =>
    earlier.wallet === award.wallet && earlier.amount === award.amount && earlier.reason === award.reason && earlier.kind === award.kind;

  const preflight = () => new HttpResponse(null, { status: 204, headers: CORS_HEADERS });

  return [
    http.options(`${base}`, preflight),
    http.options(`${base}/*`, preflight),
    http.get(`${base}`, route(discovery)), // MSW matches it with a trailing slash too
    http.get(`${base}/hub/:slug`, route(authed(({ slug, hub, url, requestId }) => serve("hub", { slug, ...hub.config }, { hub: slug, url, requestId })))),
    http.get(`${base}/hub/:slug/leaderboard`, route(authed(leaderboard))),
    http.get(`${base}/hub/:slug/holder/:wallet`, route(authed(holder))),
    http.get(`${base}/hub/:slug/stake-status`, route(authed(stakeStatus))),
    http.post(`${base}/hub/:slug/bits/earn`, route(authed(earn))),
    http.all(`${base}/*`, route(() => fail(404, "not_found", "No such endpoint."))),
  ];
}
