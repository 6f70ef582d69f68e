/**
 * A hub profile: how one hub speaks, described once as JSON. `public-hub doctor --profile FILE`
 * learns it from the hub; `HubClient`, `HubServerClient`, the CLI (`--profile FILE`) and
 * `createHubMock` accept it. Every field is optional: one left out is inferred by the SDK's rules
 * (docs/your-hub.md), and one given is obeyed as declared, without guessing.
 * @example
 * ```ts
 * const profile: HubProfile = { version: 1, envelope: "data", award: { duplicate: { status: 409, code: "duplicate_ref" } } };
 * ```
 */
export interface HubProfile {
  /** The format's version. */
  version: 1;
  /** The hub it was learned from (`doctor --profile` writes it): a server client given it for another hub logs `profile-other-hub`. */
  hub?: {
    /** The base address, as the client was given it. */
    baseUrl: string;
    /** The hub's slug. */
    slug: string;
  };
  /** The key under which every success payload sits (`{ "data": … }`); none when absent. */
  envelope?: string;
  /** The header naming each answer's request id (`x-request-id`, `x-correlation-id`…); `null`: the hub sends none (Fastify's default). */
  requestIdHeader?: string | null;
  /** How awards are answered. */
  award?: {
    /** The status of an applied award. @default 200 */
    status?: number;
    /**
     * How a `ref` sent again with the same parameters is answered; `"indistinguishable"` when the
     * hub answers it as it answers a fresh award (the award is then "applied or already credited").
     */
    duplicate?: HubSignal | "indistinguishable";
    /**
     * How a `ref` sent again with other parameters is refused; `"indistinguishable"` when the hub
     * answers it as it answers a repeat (a unique index on `ref`): the SDK then reads both as
     * "already used", and a campaign's summary says the hub does not tell them apart.
     */
    conflict?: HubSignal | "indistinguishable";
  };
  /** How error bodies are shaped (the SDK reads all of these shapes; the mock writes this one). */
  errors?: HubErrorFormat;
  /** How the hub announces its rate limit. */
  rateLimit?: {
    /** Which header fields. */
    headers: HubRateLimitHeaders;
    /** What a reset holds: seconds from the answer, or an epoch time. The client tells them apart by size. @default "seconds" (`x-ratelimit`: "epoch-seconds") */
    reset?: "seconds" | "epoch-seconds" | "epoch-ms";
    /**
     * Seconds the announced reset lies after the window really ends (slowapi's is 1): the client
     * waits that much less. @default 0
     */
    resetLagSeconds?: number;
  };
  /** The leaderboard's shape. */
  leaderboard?: {
    /** Where its rows are: `""` (a bare array), a key (`"entries"`), or `"edges.node"` (a Relay connection). */
    rows: string;
    /** How it pages. @default "none" */
    pages?: HubPaging;
  };
  /** What `doctor --profile` could not learn, in words, kept with the file. */
  notes?: string[];
}

/** One answer as the hub declares it: its status, and what else marks it. */
export interface HubSignal {
  /** The HTTP status. */
  status: number;
  /** The error code the body holds (as `errorFields(body).code` reads it). */
  code?: string;
  /** A header and its value (`Idempotent-Replayed: true`), compared without case. */
  header?: {
    /** The header's name. */
    name: string;
    /** Its value. */
    value: string;
  };
  /** A body field and its value (`duplicate: true`, `status: "already_processed"`), at the top or one envelope deep. */
  field?: {
    /** The field's name. */
    name: string;
    /** Its value, compared exactly. */
    value: string | boolean;
  };
}

/** How a hub shapes an error body. */
export type HubErrorFormat =
  /** `{ "error": { "code", "message" } }` */
  | "nested"
  /** `{ "code", "message" }` */
  | "flat"
  /** `{ "error": "<code>", "message" }` */
  | "error-string"
  /** RFC 9457 `application/problem+json`: `{ "type": "about:blank", "title", "status", "detail" }` */
  | "problem"
  /** RFC 9457 with a type per error (`{origin}/problems/invalid-award`) and `errors: [{ pointer: "#/amount", detail }]` for bad fields */
  | "problem+json"
  /** `{ "error": { "type", "code", "message", "param" } }`, as Stripe answers */
  | "error-object"
  /** `{ "errors": [{ "code", "detail", "source": { "pointer": "/amount" } }] }`, as JSON:API and Rails apps answer */
  | "errors-array"
  /** `{ "errors": [{ "message", "extensions": { "code" } }] }`, GraphQL's shape */
  | "graphql"
  /** `{ "statusCode", "error": "Bad Request", "message" }`, `message` a list of field messages for a bad body (NestJS) */
  | "nestjs"
  /** `{ "statusCode", "code", "error", "message" }` (Fastify's default) */
  | "fastify"
  /** `{ "detail": "text" }`, or `{ "detail": [{ "loc", "msg", "type" }] }` for a bad body (FastAPI) */
  | "fastapi"
  /** `text/plain` message */
  | "text"
  /** `text/html` page, as a proxy or framework default would send */
  | "html";

/** How a hub announces its rate limit on its answers. */
export type HubRateLimitHeaders =
  /** none */
  | "none"
  /** IETF draft: `RateLimit-Policy: "default";q=20;w=1` and `RateLimit: "default";r=<remaining>;t=<seconds>` */
  | "ietf"
  /** IETF draft 7: `RateLimit-Policy: 20;w=1` and `RateLimit: limit=20, remaining=19, reset=1` (express-rate-limit's `draft-7`) */
  | "ietf-draft7"
  /** the draft's older fields: `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) */
  | "ietf-legacy"
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` */
  | "x-ratelimit";

/**
 * How a leaderboard pages: Relay's `pageInfo` and `after`, a `next_cursor` and `cursor`, `page`/`pages`
 * and `page`, Stripe's `has_more` and `starting_after`, the next page's URL in the body (`next`,
 * `links.next`: Django REST framework, JSON:API), an RFC 8288 `Link: rel="next"`, or not at all.
 */
export type HubPaging = "none" | "relay" | "cursor" | "page" | "has-more" | "next" | "link";
