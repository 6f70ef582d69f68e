/**
 * @module
 * The browser-safe client: discovery and the four reads of one hub. It sends the public
 * `x-api-key` and nothing secret.
 */
import { checkBody, decodeBody, unwrapBody, type BodyKind } from "../core/answer";
import { createLog, DEFAULTS, Requester, resolveRetry, safely, type CallSpec, type CallTrace, type Log } from "../core/request";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { HubData, HubOperation, HubSchemas, ValidateMode } from "../core/types/schemas";
import type { HubProfile } from "../core/types/profile";
import type { HubTelemetry } from "../core/types/telemetry";
import { checkCallOptions, checkClientOptions, checkLeaderboardQuery, checkWallet, CLIENT_OPTIONS, normalizeBaseUrl, pathOf } from "./check-input";

/** Query of {@link HubClient.getLeaderboard}. */
export interface LeaderboardQuery {
  /** Maximum number of rows, a positive integer. The server's default and maximum apply. */
  limit?: number;
  /**
   * The hub's own page parameters, sent as query parameters beside `limit`: `{ after: "…" }`,
   * `{ cursor: "…" }`, `{ page: 2 }`. Each value a non-blank string or a safe integer; never
   * `limit`. {@link iterateLeaderboard} sets them to read every page.
   */
  page?: Record<string, string | number>;
}

/** A successful call with its HTTP metadata. */
export interface WithResponse<T> {
  /** The decoded body (its payload, with `unwrap`), exactly what awaiting the call gives. */
  data: T;
  /** The final HTTP response (its body already read: use `data`). */
  response: Response;
  /** The request id the server sent (`Request-Id`, `X-Request-Id`…): quote it to the API operator. */
  requestId: string | undefined;
  /** How many attempts the call sent, the answered one included (1 when nothing was retried). */
  attempts: number;
  /** With the `unwrap` option: the whole body, envelope and all (`meta`, links…). */
  envelope?: unknown;
}

/**
 * A successful write (`awardPoints`) with its HTTP metadata: whether the hub already had its `ref`
 * (`duplicate`), and whether an earlier attempt of this same call may have been applied.
 * "Claimed by an earlier call" is `duplicate && !mayHaveBeenAppliedEarlier`.
 * @example
 * ```ts
 * const { duplicate, mayHaveBeenAppliedEarlier } = await server.awardPoints(award).withResponse();
 * if (duplicate && !mayHaveBeenAppliedEarlier) console.log("already claimed by an earlier call");
 * ```
 */
export interface WithWriteResponse<T> extends WithResponse<T> {
  /**
   * The hub answered that it already had this `ref` (a 2xx flag, a replay header, `208`, or a
   * 409/422 naming a duplicate: see the `duplicate` option of `HubServerClient`). The award is
   * credited once either way.
   */
  duplicate: boolean;
  /**
   * An attempt before the last one may have been applied (its answer was lost: a reset, a timeout,
   * a 5xx). A duplicate answer may then be this call's own award.
   */
  mayHaveBeenAppliedEarlier: boolean;
}

/**
 * What every client method returns: a `Promise` of the data that also offers `.withResponse()`
 * (openai-node's `APIPromise` shape). The request starts at once, whether or not it is called.
 * @example
 * ```ts
 * const config = await hub.getHub();                                  // the data
 * const { data, requestId } = await hub.getHub().withResponse();      // the data and its metadata
 * ```
 */
export class HubPromise<T, R extends WithResponse<T> = WithResponse<T>> extends Promise<T> {
  readonly #source: Promise<R>;

  /** @internal Made by the clients' methods only. */
  constructor(source: Promise<R>) {
    super((resolve, reject) => {
      source.then((result) => resolve(result.data), reject);
    });
    this.#source = source;
  }

  /** `then`, `catch` and `finally` return plain promises. */
  static override get [Symbol.species]() {
    return Promise;
  }

  /** The data together with the final `Response`, `requestId` and `attempts`. */
  withResponse(): Promise<R> {
    // Whoever awaits only this must not see an "unhandled rejection" of the data promise too.
    super.then(undefined, () => undefined);
    return this.#source;
  }
}

/** One call as a client method describes it. @internal */
export interface HubCall {
  /** The public method's name, as telemetry records it (`getHolder`, `awardPoints`…). */
  name: string;
  method?: "GET" | "POST";
  /** Path segments after the base address, each encoded as exactly one segment. */
  segments: string[];
  /** The path template (`/hub/{slug}/holder/{wallet}`), for telemetry. */
  template?: string;
  query?: Record<string, string | number | undefined>;
  /** The exact body string to send (JSON). */
  body?: string;
  /** Which JSON the call accepts. @default "object" */
  kind?: BodyKind;
  /** Whether to send `x-api-key`. @default true */
  authenticated?: boolean;
  /** The operation whose schema checks the answer. */
  operation?: HubOperation;
  wallet?: string | undefined;
  ref?: string | undefined;
  /** A server client's write: signs each attempt. */
  sign?: CallSpec["sign"];
  refusedForClock?: CallSpec["refusedForClock"];
}

/** What one send of a call gives: the data and its metadata, and the raw parts a write reads further. */
export interface Exchanged<T> extends WithResponse<T> {
  /** The body as decoded, before `unwrap` and the schema. */
  body: unknown;
  mayHaveBeenAppliedEarlier: boolean;
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
  /** The hub profile this client was given, if any (its leaderboard's rows and pages, for {@link iterateLeaderboard}). */
  declare readonly profile: HubProfile | undefined;
  readonly #validate: ValidateMode;
  readonly #unwrap: string | undefined;
  readonly #telemetry: HubTelemetry | undefined;
  readonly #requester: Requester;
  /** Field paths already logged under `validate: "warn"`: each once per client. */
  readonly #warned = new Set<string>();
  /** @internal This client's log, for the server client. */
  readonly log: Log;

  /** @internal The option names a subclass adds to the check. */
  protected static readonly optionNames: readonly string[] = CLIENT_OPTIONS;

  /** @throws {HubValidationError} when an option is unknown, missing or malformed. */
  constructor(options: HubClientOptions<S>) {
    const base = normalizeBaseUrl(options?.baseUrl);
    checkClientOptions(options, (new.target as typeof HubClient).optionNames);
    this.hub = options.hub;
    this.baseUrl = base.href;
    this.schemas = options.schemas ?? ({} as S);
    this.profile = options.profile;
    this.#validate = options.validate ?? "throw";
    this.#unwrap = options.unwrap ?? options.profile?.envelope;
    this.#telemetry = options.telemetry;
    this.log = createLog(options.logLevel, options.logger);
    this.#requester = new Requester({
      baseUrl: base,
      clientId: options.clientId,
      headers: options.headers,
      timeout: options.timeout ?? DEFAULTS.timeout,
      retry: resolveRetry(options.retry),
      maxConcurrency: options.maxConcurrency ?? DEFAULTS.maxConcurrency,
      fetch: options.fetch,
      onRequest: options.onRequest,
      neverSent: (code) => this.neverSent(code),
      log: this.log,
    });
  }

  /** @internal The server client's clock (every answer moves it, every server time is placed through it), budget (its pace, shared when given one) and error reader (field issues too). */
  protected usePace(clock: Requester["clock"], budget: Requester["budget"], readFields: Requester["readFields"]): void {
    Object.assign(this.#requester, { clock, budget, readFields });
  }

  /** @internal Whether a failure with this system code never left this machine: a `HubClient` knows no such list. */
  protected neverSent(_code: string | undefined): boolean {
    return false;
  }

  /** The discovery document listing the current API surface. Sent without `x-api-key`. */
  discover<T = HubData<S, "discovery">>(options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ name: "discover", segments: [], template: "", authenticated: false, operation: "discovery" }, options);
  }

  /** The public configuration of the hub. Throws `NotFoundError` for an unknown hub. */
  getHub<T = HubData<S, "hub">>(options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ name: "getHub", segments: ["hub", this.hub], template: "/hub/{slug}", operation: "hub" }, options);
  }

  /**
   * The top stakers of the hub, as the server sends them (see {@link leaderboardRows}).
   * @throws {HubValidationError} when `limit` is not a positive integer, or a `page` parameter is malformed; nothing is sent.
   * @example
   * ```ts
   * const board = await hub.getLeaderboard({ limit: 10 });
   * for (const row of leaderboardRows(board)) console.log(row.rank, row.wallet);
   * ```
   */
  getLeaderboard<T = HubData<S, "leaderboard">>(query?: LeaderboardQuery, options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ name: "getLeaderboard", segments: ["hub", this.hub, "leaderboard"], template: "/hub/{slug}/leaderboard", query: { limit: query?.limit, ...query?.page }, kind: "object-or-array", operation: "leaderboard" }, options, () => checkLeaderboardQuery(query));
  }

  /**
   * The holder status and reward-point balance of one wallet.
   * @throws {HubValidationError} when `wallet` is empty; nothing is sent.
   */
  getHolder<T = HubData<S, "holder">>(wallet: string, options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ name: "getHolder", segments: ["hub", this.hub, "holder", wallet], template: "/hub/{slug}/holder/{wallet}", operation: "holder", wallet }, options, () => checkWallet(wallet));
  }

  /**
   * The staking summary of one wallet (sent as the `wallet` query parameter).
   * @throws {HubValidationError} when `wallet` is missing or empty; nothing is sent.
   */
  getStakeStatus<T = HubData<S, "stakeStatus">>(wallet: string, options?: RequestOptions<T>): HubPromise<T> {
    return this.request({ name: "getStakeStatus", segments: ["hub", this.hub, "stake-status"], template: "/hub/{slug}/stake-status", query: { wallet }, operation: "stakeStatus", wallet }, options, () => checkWallet(wallet));
  }

  /** @internal One public call: checked, observed, sent, decoded. A throw becomes a rejection. */
  protected request<T, R extends WithResponse<T> = WithResponse<T>>(call: HubCall, options: RequestOptions<T> | undefined, check?: () => void): HubPromise<T, R> {
    const run = async (trace: CallTrace | undefined) => {
      // JavaScript callers may hand anything: checked before anything is sent.
      checkCallOptions(options);
      check?.();
      const { body: _body, mayHaveBeenAppliedEarlier: _earlier, ...result } = await this.exchange<T>(call, options ?? {}, trace);
      return result as R;
    };
    return new HubPromise<T, R>(this.observe(call, run));
  }

  /** @internal Runs a public call under the client's telemetry; what an observer throws is logged, never the call's. */
  protected observe<R>(call: Pick<HubCall, "name" | "method" | "segments" | "template" | "wallet" | "ref">, run: (trace: CallTrace | undefined) => Promise<R>): Promise<R> {
    const telemetry = this.#telemetry;
    if (!telemetry) return run(undefined);
    return telemetry.observe({ ...call, hub: this.hub, baseUrl: this.baseUrl }, this.log, run);
  }

  /** @internal One send of a call, its answer decoded and checked. */
  protected async exchange<T>(call: HubCall, options: RequestOptions<T>, trace: CallTrace | undefined): Promise<Exchanged<T>> {
    const method = call.method ?? "GET";
    const query = call.query && Object.entries(call.query).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
    const answer = await this.#requester.send({
      method,
      path: pathOf(call.segments),
      // An empty query is none to ky: no `?` is sent.
      query: query && Object.fromEntries(query),
      authenticated: call.authenticated ?? true,
      body: call.body,
      signal: options.signal,
      timeout: options.timeout,
      retry: options.retry,
      sign: call.sign,
      refusedForClock: call.refusedForClock,
      trace,
    });
    const decoded = { status: answer.response.status, headers: answer.response.headers, text: answer.text, applied: method === "POST" };
    const body = decodeBody(decoded, call.kind ?? "object");
    const operation = call.operation ?? `${method} /${call.segments.join("/")}`;
    const payload = unwrapBody(body, this.#unwrap);
    // The call's own schema, else the client's for the operation.
    const schema = options.schema ?? (call.operation && this.schemas[call.operation]);
    const mode = options.validate ?? this.#validate;
    // Nothing to check: the payload as sent, without a check's promise and closures.
    const data = !schema || mode === "off" ? (payload as T) : await checkBody<T>(payload, {
      schema,
      mode,
      operation,
      answer: decoded,
      warn: (fields) => {
        const key = `${operation} ${String(fields.path)}`;
        if (this.#warned.has(key)) return;
        this.#warned.add(key);
        this.log("warn", "schema-mismatch", () => fields);
      },
    });
    return { data, body, response: answer.response, requestId: answer.requestId, attempts: answer.attempts, mayHaveBeenAppliedEarlier: answer.mayHaveBeenAppliedEarlier, ...(this.#unwrap !== undefined && { envelope: body }) };
  }
}
