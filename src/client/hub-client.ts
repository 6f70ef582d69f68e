/**
 * @module
 * The browser-safe client: discovery and the four reads of one hub. It sends the public
 * `x-api-key` and nothing secret.
 */
import { CLIENT_DEFAULTS } from "../core/defaults";
import { decodeBody } from "../core/http/body";
import { checkBody } from "../core/http/check-body";
import type { CallSpec } from "../core/http/call";
import type { WritePolicy } from "../core/http/write-policy";
import { Transport } from "../core/http/transport";
import { HubPromise, type WithResponse, type WithWriteResponse } from "../core/hub-promise";
import { createLog, type Log } from "../core/log";
import { traceCall, type CallTrace } from "../core/telemetry/trace-call";
import type { HubTelemetry } from "../core/telemetry/types";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { HubData, HubOperation, HubSchemas, ValidateMode } from "../core/types/schemas";
import { normalizeBaseUrl, pathOf } from "../core/url";
import { CLIENT_OPTIONS, checkCallOptions, checkClientOptions, checkLeaderboardQuery, checkWallet } from "./check-input";

/**
 * Query of {@link HubClient.getLeaderboard}.
 * @example
 * ```ts
 * const query: LeaderboardQuery = { limit: 10 };
 * ```
 */
export interface LeaderboardQuery {
  /**
   * Maximum number of rows, a positive integer. The server's default and maximum apply.
   * @example 10
   */
  limit?: number;
}

/**
 * A snapshot of a client's rate gate (see {@link HubClient.rateLimitStatus}).
 * @example
 * ```ts
 * const status: RateLimitStatus = hub.rateLimitStatus;
 * if (status.pausedUntil > Date.now()) console.log("server asked to wait");
 * ```
 */
export interface RateLimitStatus {
  /** The send rate now allowed, in requests per second; `Infinity` for no limit. */
  requestsPerSecond: number;
  /** Epoch milliseconds until which every request waits (`Retry-After`); 0 when not paused. */
  pausedUntil: number;
  /** Retry tokens left in the budget. */
  retryTokens: number;
  /** Attempts in flight. */
  inFlight: number;
  /** Attempts waiting in the gate. */
  queued: number;
}

/**
 * One request as the client methods describe it; subclasses add calls through `request()`.
 * @example
 * ```ts
 * const call: HubCall = { segments: ["hub", "alpha", "leaderboard"], query: { limit: 5 }, kind: "object-or-array" };
 * ```
 */
export interface HubCall {
  /** HTTP method. @default "GET" */
  method?: "GET" | "POST";
  /** Path segments after the base address, each encoded as exactly one segment. */
  segments: string[];
  /** Query parameters; `undefined` values are left out. */
  query?: Record<string, string | number | undefined>;
  /** The exact body string to send (JSON). */
  body?: string;
  /** Checks the input before anything is sent; throws `HubValidationError` for bad input. */
  check?: () => void;
  /** Which JSON the call accepts: an object; an object or array (lists); an object or nothing (writes). @default "object" */
  kind?: "object" | "object-or-array" | "object-or-empty";
  /** Whether to send `x-api-key`. @default true */
  authenticated?: boolean;
  /** The operation whose schema (in the client's `schemas`) checks the answer. @default none */
  operation?: HubOperation;
}

/**
 * Reads of one hub. A key is scoped to exactly one hub, so the client is bound to it.
 *
 * @example
 * ```ts
 * import { HubClient } from "public-hub-sdk";
 *
 * const hub = new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha", hub: "alpha" });
 * const config = await hub.getHub();
 * const top = await hub.getLeaderboard({ limit: 10 });
 * ```
 * With response shapes declared once, every read is typed by them (`S` is inferred):
 * ```ts
 * const hub = new HubClient({ baseUrl, clientId, hub: "alpha", schemas: { holder: z.object({ bits: z.number() }) } });
 * const { bits } = await hub.getHolder("0xabc"); // number
 * ```
 */
export class HubClient<S extends HubSchemas = {}> {
  /** The slug of the hub this client addresses. */
  declare readonly hub: string;
  /** The API base address in use, e.g. `https://hub.example.com/api/v1`. */
  declare readonly baseUrl: string;
  /** The response shapes this client was given (`{}` for none); hand them to `createHubMock` too. */
  declare readonly schemas: S;
  readonly #validate: ValidateMode;
  readonly #base: URL;
  readonly #transport: Transport;
  readonly #telemetry: HubTelemetry | undefined;
  /** The server client's write policy: how its writes are signed (a `HubClient` has none). */
  readonly #writes: WritePolicy | undefined;
  /** This client's log (`logLevel`, `logger`, `PUBLIC_HUB_LOG`), for subclasses. */
  protected readonly log: Log;

  /**
   * The names of this class's constructor options: any other name is a `HubValidationError`
   * naming the nearest known one. A subclass that takes options of its own adds their names.
   * @example
   * ```ts
   * class CachingClient extends HubClient {
   *   protected static override readonly optionNames: readonly string[] = [...HubClient.optionNames, "cache"];
   * }
   * ```
   */
  protected static readonly optionNames: readonly string[] = CLIENT_OPTIONS;

  /** @throws {HubValidationError} when an option is unknown, missing or malformed. */
  constructor(options: HubClientOptions<S>);
  /**
   * The server client's: its write policy, made once the options passed their checks, with this
   * client's log. Not in the published types (`stripInternal`): a browser client signs nothing.
   * @internal
   */
  constructor(options: HubClientOptions<S>, writes: (log: Log) => WritePolicy);
  constructor(options: HubClientOptions<S>, writes?: (log: Log) => WritePolicy) {
    this.#base = normalizeBaseUrl(options?.baseUrl);
    checkClientOptions(options, (new.target as typeof HubClient).optionNames);
    this.hub = options.hub;
    this.baseUrl = this.#base.href;
    this.schemas = options.schemas ?? ({} as S);
    this.#validate = options.validate ?? "throw";
    this.log = createLog(options.logLevel, options.logger);
    this.#telemetry = options.telemetry;
    // Only the server entry passes one; a JavaScript caller's stray second argument is not one.
    this.#writes = typeof writes === "function" ? writes(this.log) : undefined;
    this.#transport = new Transport({
      baseUrl: this.#base,
      clientId: options.clientId,
      timeout: options.timeout ?? CLIENT_DEFAULTS.timeout,
      retry: options.retry,
      rateLimit: options.rateLimit,
      fetch: options.fetch,
      headers: options.headers,
      onRequest: options.onRequest,
      dedupeReads: options.dedupeReads ?? CLIENT_DEFAULTS.dedupeReads,
      writes: this.#writes,
      log: this.log,
    });
  }

  /**
   * The state of this client's rate gate, for monitoring: the send rate now allowed (`Infinity`
   * until the server throttles, or your `maxRequestsPerSecond`), the end of a `Retry-After` pause
   * (epoch ms, 0 for none), the retry tokens left, and the attempts in flight and waiting.
   * @example
   * ```ts
   * const { requestsPerSecond, queued } = hub.rateLimitStatus;
   * ```
   */
  get rateLimitStatus(): RateLimitStatus {
    const gate = this.#transport.gate;
    return { requestsPerSecond: gate.rate(), pausedUntil: gate.pausedUntil, retryTokens: gate.retryTokens, ...gate.load };
  }

  /**
   * The discovery document listing the current API surface. Sent without `x-api-key`.
   * @example
   * ```ts
   * const doc = await hub.discover();
   * ```
   */
  discover<T = HubData<S, "discovery">>(options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ segments: [], authenticated: false, operation: "discovery" }, options);
  }

  /**
   * The public configuration of the hub. Throws `NotFoundError` for an unknown hub.
   * @example
   * ```ts
   * const config = await hub.getHub();
   * console.log(config.name);
   * ```
   */
  getHub<T = HubData<S, "hub">>(options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ segments: ["hub", this.hub], operation: "hub" }, options);
  }

  /**
   * The top stakers of the hub, as the server sends them (see {@link leaderboardRows}).
   * @throws {HubValidationError} when `limit` is not a positive integer; nothing is sent.
   * @example
   * ```ts
   * const board = await hub.getLeaderboard({ limit: 10 });
   * for (const row of leaderboardRows(board)) console.log(row.rank, row.wallet);
   * ```
   */
  getLeaderboard<T = HubData<S, "leaderboard">>(query?: LeaderboardQuery, options?: RequestOptions<T>): HubPromise<T> {
    const limit = query?.limit;
    const check = () => checkLeaderboardQuery(query);
    return this.request({ segments: ["hub", this.hub, "leaderboard"], query: { limit }, kind: "object-or-array", check, operation: "leaderboard" }, options);
  }

  /**
   * The holder status and reward-point balance of one wallet.
   * @throws {HubValidationError} when `wallet` is empty; nothing is sent.
   * @example
   * ```ts
   * const holder = await hub.getHolder("0xabc");
   * ```
   */
  getHolder<T = HubData<S, "holder">>(wallet: string, options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ segments: ["hub", this.hub, "holder", wallet], check: () => checkWallet(wallet), operation: "holder" }, options);
  }

  /**
   * The staking summary of one wallet (sent as the `wallet` query parameter).
   * @throws {HubValidationError} when `wallet` is missing or empty; nothing is sent.
   * @example
   * ```ts
   * const stake = await hub.getStakeStatus("0xabc");
   * ```
   */
  getStakeStatus<T = HubData<S, "stakeStatus">>(wallet: string, options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ segments: ["hub", this.hub, "stake-status"], query: { wallet }, check: () => checkWallet(wallet), operation: "stakeStatus" }, options);
  }

  /**
   * A write (`POST`): its `withResponse()` also says whether an attempt before the last may have
   * been applied. On a `HubServerClient`, every attempt is signed.
   * @example
   * ```ts
   * class MyServerClient extends HubServerClient {
   *   touch(wallet: string) {
   *     return this.request({ method: "POST", segments: ["hub", this.hub, "touch"], body: JSON.stringify({ wallet }), kind: "object-or-empty" });
   *   }
   * }
   * ```
   */
  protected request<T>(call: HubCall & { method: "POST" }, options?: RequestOptions<T>): HubPromise<T, WithWriteResponse<T>>;
  /**
   * Sends one call through the transport and decodes its body. For subclasses that add calls.
   * @example
   * ```ts
   * class MyClient extends HubClient {
   *   ping() {
   *     return this.request({ segments: [], authenticated: false });
   *   }
   * }
   * ```
   */
  protected request<T>(call: HubCall, options?: RequestOptions<T>): HubPromise<T>;
  protected request<T>(call: HubCall, options?: RequestOptions<T>): HubPromise<T, WithResponse<T>> {
    // HubPromise.run turns a throw in #call (bad input) into a rejection.
    return HubPromise.run(() => traceCall(this.#telemetry, this, call, (trace) => this.#call(call, options, trace)));
  }

  async #call<T>(call: HubCall, given: RequestOptions<T> | undefined, trace: CallTrace | undefined): Promise<WithResponse<T> | WithWriteResponse<T>> {
    // JavaScript callers may hand anything: checked before anything is sent.
    checkCallOptions(given);
    const options = given ?? {};
    call.check?.();
    const spec: CallSpec = {
      method: call.method ?? "GET",
      // ky's prefixUrl always ends in a slash: the discovery document is the base address itself.
      input: call.segments.length === 0 ? this.#base.href : pathOf(call.segments),
      query: definedOnly(call.query),
      authenticated: call.authenticated ?? true,
      body: call.body,
      signal: options.signal,
      timeout: options.timeout,
      retry: options.retry,
      trace,
    };
    // A server client's write goes through its policy (signed, perhaps sent again for the clock).
    return spec.method === "POST" && this.#writes ? this.#writes.send(spec, (sent) => this.#exchange(call, sent, options)) : this.#exchange(call, spec, options);
  }

  /** One send of a call, and its answer decoded and checked. */
  async #exchange<T>(call: HubCall, spec: CallSpec, options: RequestOptions<T>): Promise<WithResponse<T> | WithWriteResponse<T>> {
    const raw = await this.#transport.send(spec);
    const data = await checkBody<T>(await decodeBody(raw, call.kind ?? "object"), {
      // The call's own schema, else the client's for the operation; a subclass's call may have neither.
      schema: options.schema ?? (call.operation && this.schemas[call.operation]),
      mode: options.validate ?? this.#validate,
      operation: call.operation ?? `${call.method ?? "GET"} /${call.segments.join("/")}`,
      applied: call.method === "POST",
      answer: raw,
      log: this.log,
    });
    const result = { data, response: raw.response, requestId: raw.headers.get("x-request-id") ?? undefined, attempts: raw.attempts };
    return call.method === "POST" ? { ...result, mayHaveBeenAppliedEarlier: raw.mayHaveBeenAppliedEarlier } : result;
  }
}

/** The query, or undefined when it has no value: ky leaves out `undefined` values, but would send a bare "?". */
function definedOnly(query: HubCall["query"]): HubCall["query"] {
  return query && Object.values(query).some((value) => value !== undefined) ? query : undefined;
}
