/**
 * @module
 * The server-side client: every read of {@link HubClient}, plus signed awards. An award, top-down:
 * parsed once, each attempt signed just before it is sent in server time, the one re-send when the
 * server refused the timestamp, and its outcome: applied, duplicate, or an error with the verdict.
 */
import { CLIENT_OPTIONS, checkCallOptions, SERVER_ONLY_OPTIONS } from "../client/check-input";
import { HubClient, HubPromise, type Exchanged, type HubCall, type WithWriteResponse } from "../client/hub-client";
import { awardOutcome, errorFields, unwrapBody, type AwardAnswer, type AwardOutcome } from "../core/answer";
import { parseHubProfile } from "../core/profile";
import { HubApiError, HubSchemaError, HubTimeoutError, NEVER_SENT, REFUSAL_STATUSES, refusalKind, type SigningDiagnostics } from "../core/errors";
import type { CallTrace } from "../core/request";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { HubData, HubSchemas } from "../core/types/schemas";
import { parseAward, type AwardInput } from "./award-schema";
import { assertNotBrowser } from "./browser-guard";
import { campaignContext } from "./campaign/errors";
import type { AwardSource, CampaignJournal, CampaignOptions, CampaignSummary } from "./campaign/types";
import { ServerClock, SIGNATURE_WINDOW_SECONDS } from "./server-clock";
import { memoryBudget } from "../core/pace";
import type { BudgetStore } from "./redis-budget";
import { awardSegments, checkKeyOptions, hmacSigner, sha256Hex, signingPayload } from "./signing";

/**
 * Opens a campaign journal given as a path: the file journal, whose code and `node:fs` load only
 * now. Where the runtime has no `node:fs` (a worker), a path is refused as a bad option.
 */
export async function openJournal(path: string, hub: string | undefined): Promise<Required<CampaignJournal>> {
  const { FileJournal } = await import("./campaign/file-journal");
  // `open` only imports `node:fs/promises` (the file is read later): its failure means no file system.
  return FileJournal.open(path, { hub, invalid: campaignContext.invalid }).catch(() => {
    throw campaignContext.invalid("campaign options", ["journal"], "a journal path needs a file system (node:fs: Node, Bun, Deno); pass a CampaignJournal object here");
  });
}

/** `Date` has whole seconds, and the refusal took its time to come back. */
const SKEW_MARGIN_SECONDS = 2;

/** What an error of a write that may have been applied adds to the end of its message. */
const MAY_HAVE_BEEN_APPLIED = " It may have been applied: retrying with the same ref is safe.";

/** Options of a {@link HubServerClient}: those of `HubClient`, plus the key material. */
export interface HubServerClientOptions<S extends HubSchemas = HubSchemas> extends HubClientOptions<S> {
  /**
   * The API secret shown once in the studio. It is hashed at construction and never sent,
   * logged or kept in a readable property. Give this or `signingKey`, not both.
   */
  secret?: string;
  /** Instead of `secret`: its lowercase hex SHA-256 (see `deriveSigningKey`), if you store that. */
  signingKey?: string;
  /**
   * Lets the client run where a `window` or `document` exists. Only for tests in a DOM
   * environment: in a real browser the secret would be public.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Reads whether an award's answer says the hub already had its `ref`, for a hub that says it in
   * its own way: `true` or `false` decides, `undefined` leaves it to the profile's `award.duplicate`
   * when it declares one, else to the SDK's rule (a 2xx
   * `duplicate`/`replayed` flag, `Idempotent-Replayed: true`, `208`, or a 409/422 naming a
   * duplicate; see docs/spec-decisions.md).
   * @default the SDK's rule
   * @example (answer) => answer.status === 409 && (answer.body as { code?: string }).code === "E_REF_TAKEN"
   */
  duplicate?: (answer: AwardAnswer) => boolean | undefined;
  /**
   * Where this client keeps its hub key's pace (the hub's announced limit, a pause it asked for,
   * the rate adapted to a limit that says nothing), shared by every process that awards with the
   * same key: {@link redisBudget}. Without one, the client keeps its own, in memory.
   * @default this client's own
   */
  budget?: BudgetStore;
}

/**
 * The server-side client: every read of `HubClient`, plus signed awards and campaigns.
 * @example
 * ```ts
 * import { HubServerClient } from "public-hub-sdk/server";
 *
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET! });
 * await server.awardPoints({ wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" });
 * ```
 */
export class HubServerClient<S extends HubSchemas = {}> extends HubClient<S> {
  /** @internal */
  protected static override readonly optionNames: readonly string[] = [...CLIENT_OPTIONS, ...SERVER_ONLY_OPTIONS];
  readonly #sign: (payload: string) => Promise<string>;
  readonly #duplicate: HubServerClientOptions["duplicate"];
  readonly #profile: HubClientOptions["profile"];
  readonly #clock = new ServerClock();
  /** The causes (error names) of awards whose outcome was unknown, each logged once. */
  readonly #unknown = new Set<string>();
  /** The clock offset last logged: a move of more than a second is logged when a write is signed with it. */
  #loggedOffset = 0;

  /** @throws {BrowserNotAllowedError} in a browser; {@link HubValidationError} for bad options. */
  constructor(options: HubServerClientOptions<S>) {
    assertNotBrowser(options?.dangerouslyAllowBrowser);
    super(options);
    checkKeyOptions(options);
    this.#duplicate = options.duplicate;
    // The whole profile is checked here: the browser client checks only the fields it reads.
    this.#profile = options.profile && parseHubProfile(options.profile);
    const learned = this.#profile?.hub;
    if (learned && (learned.slug !== this.hub || learned.baseUrl.trim().replace(/\/+$/, "") !== this.baseUrl)) {
      this.log("warn", "profile-other-hub", () => ({ learnedFrom: `${learned.baseUrl} ${learned.slug}`, client: `${this.baseUrl} ${this.hub}` }));
    }
    this.#clock.resetLagMs = (this.#profile?.rateLimit?.resetLagSeconds ?? 0) * 1000;
    // Every answer's `Date`, reads too, moves it: the first write is already signed in server time.
    // One budget per hub key: the client id at the base address.
    this.usePace(this.#clock, options.budget?.open(`${options.clientId} ${this.baseUrl}`, (event, fields) => this.log("warn", event, () => fields)) ?? memoryBudget(), errorFields);
    // Derived once per client: only the prepared signer is kept, never the secret itself.
    const signer = Promise.resolve(options.signingKey ?? sha256Hex(options.secret!)).then(hmacSigner);
    signer.catch(() => undefined); // surfaced on the first award instead
    this.#sign = async (payload) => (await signer)(payload);
  }

  /** Milliseconds between this machine's clock and the server's, from the latest `Date` header. */
  get clockOffsetMs(): number {
    return this.#clock.offsetMs;
  }

  /** @internal Failures before a byte left (a refused connection, an unknown host…): such a write was not applied. */
  protected override neverSent(code: string | undefined): boolean {
    return NEVER_SENT.has(String(code));
  }

  /**
   * Awards points to a wallet with a signed `POST /hub/{slug}/bits/earn`. Retries (network errors,
   * 408, 429, 5xx) resend the same body and `ref`, freshly signed, so the server applies it once.
   * It resolves when the award is applied or the hub already had its `ref` (`withResponse().duplicate`).
   * @throws {HubValidationError} for a bad award; nothing is sent.
   */
  awardPoints<T = HubData<S, "award">>(award: AwardInput, options?: RequestOptions<T>): HubPromise<T, WithWriteResponse<T>> {
    const call: HubCall & { method: "POST" } = { name: "awardPoints", method: "POST", segments: awardSegments(this.hub), template: "/hub/{slug}/bits/earn", kind: "write", operation: "award" };
    let checked: AwardInput | undefined;
    let invalid: unknown;
    try {
      // Parsed once: the copy of its declared fields is what is serialized, sent and signed on every attempt.
      checked = parseAward(award);
      Object.assign(call, { body: JSON.stringify(checked), ref: checked.ref, wallet: checked.wallet });
    } catch (error) {
      invalid = error;
    }
    return new HubPromise(
      this.observe(call, async (trace) => {
        checkCallOptions(options);
        if (checked === undefined) throw invalid;
        return this.#award<T>(call, checked, options ?? {}, trace);
      }),
    );
  }

  /** One award: each attempt signed in server time, once more if the hub refused its timestamp; its outcome read. */
  async #award<T>(call: HubCall, award: AwardInput, options: RequestOptions<T>, trace: CallTrace | undefined): Promise<WithWriteResponse<T>> {
    let signed: Omit<SigningDiagnostics, "bodySha256"> | undefined;
    const clock = this.#clock;
    // Unix seconds in server time, as the decimal string `x-api-timestamp` carries.
    const timestamp = () => String(Math.floor((Date.now() + clock.offsetMs) / 1000));
    const sign = async (path: string) => {
      if (Math.abs(clock.offsetMs - this.#loggedOffset) > 1_000) {
        this.#loggedOffset = clock.offsetMs;
        this.log("info", "clock", () => ({ offsetMs: Math.round(clock.offsetMs) }));
      }
      // Each attempt, after its turn and just before it is sent.
      signed = { timestamp: timestamp(), method: "POST", path, clockOffsetMs: clock.offsetMs };
      return { "x-api-timestamp": signed.timestamp, "x-api-signature": await this.#sign(signingPayload({ ...signed, body: call.body ?? "" })) };
    };
    // A refusal whose `Date` (it moved the clock) shows the signed timestamp was outside the server's window.
    const refusedForClock = (status: number) => {
      const skewed = signed !== undefined && REFUSAL_STATUSES.has(status) && Math.abs(Number(timestamp()) - Number(signed.timestamp)) > SIGNATURE_WINDOW_SECONDS - SKEW_MARGIN_SECONDS;
      if (skewed) this.log("warn", "clock-retry", () => ({ offsetMs: Math.round(clock.offsetMs) }));
      return skewed;
    };
    try {
      const { body, envelope, ...result } = await this.exchange<T>({ ...call, sign, refusedForClock }, options, trace);
      const duplicate = this.#outcome({ status: result.response.status, headers: result.response.headers, body }, award) === "duplicate";
      return { ...result, duplicate, ...(envelope !== undefined && { envelope }) };
    } catch (error) {
      if (error instanceof HubApiError && this.#outcome(error, award) === "duplicate") {
        // The hub already had this ref (a refusal saying so): an outcome, not a failure. `data` is its answer as sent.
        // After an attempt whose answer was lost, it is that attempt's award (`mayHaveBeenAppliedEarlier`).
        const response = new Response(null, { status: error.status, headers: error.headers });
        return { data: unwrapBody(error.body, undefined) as T, response, requestId: error.requestId, attempts: error.attempts ?? 1, duplicate: true, mayHaveBeenAppliedEarlier: error.mayHaveBeenApplied };
      }
      throw await this.#failed(error, signed, call.body ?? "", options.signal);
    }
  }

  /** The award's outcome by the one rule (`awardOutcome`), with this client's profile and its own `duplicate` rule. */
  #outcome(answer: AwardAnswer | HubApiError, award: AwardInput): AwardOutcome {
    const read: AwardAnswer = answer instanceof HubApiError ? { status: answer.status, headers: new Headers(answer.headers), body: answer.body } : answer;
    let duplicate: boolean | undefined;
    try {
      duplicate = this.#duplicate?.(read);
    } catch (error) {
      this.log("warn", "observer-failed", () => ({ option: "duplicate", error: (error as Error | null)?.message ?? String(error) }));
    }
    return awardOutcome(read, { award, profile: this.#profile?.award, duplicate });
  }

  /**
   * The error an award throws: a refused signed write says what was signed (a refusal of the
   * signature or timestamp also the usual causes); one that may have been applied says so, and is
   * logged (an error, unless the caller chose it by aborting).
   */
  async #failed(error: unknown, signed: Omit<SigningDiagnostics, "bodySha256"> | undefined, body: string, signal: AbortSignal | undefined): Promise<unknown> {
    if (!(error instanceof Error)) return error;
    if (signed && error instanceof HubApiError && REFUSAL_STATUSES.has(error.status)) {
      const signing: SigningDiagnostics = { ...signed, bodySha256: await sha256Hex(body) };
      Object.defineProperty(error, "signing", { value: signing, enumerable: true });
      const kind = refusalKind(error);
      if (kind === "key") error.message += " — the hub refused the API key (clientId), not the signature: is it this hub's, and not revoked?";
      if (kind === "credentials") {
        error.message +=
          ` — the signed write was refused. Usual causes: the secret does not belong to this clientId;` +
          ` a proxy rewrote the path or the body (signed: ${signing.method} ${signing.path}, body sha256 ${signing.bodySha256.slice(0, 12)}…);` +
          ` the clock (timestamp ${signing.timestamp}, offset to the server ${(signing.clockOffsetMs / 1000).toFixed(1)} s). See error.signing.`;
      }
    }
    // https:// to a hub that answers plain HTTP either fails TLS at once (a systemic cause) or, where the
    // server waits for a whole request line (gunicorn), times out: said after the first such failure.
    if (error instanceof HubTimeoutError && error.origin?.startsWith("https:") && !this.#clock.heard) error.message += " No answer has come from this hub yet: if it serves plain HTTP, its base URL is http://.";
    // Said here, where awards are: the browser's bundle has no award to say it of.
    if (error instanceof HubSchemaError) error.message += "; the award WAS applied: do not treat it as failed";
    if ((error as { mayHaveBeenApplied?: boolean }).mayHaveBeenApplied === true) {
      // A warning, once per cause: the caller (a campaign riding out an outage) may still settle it; what ends failed is the caller's to report.
      if (!this.#unknown.has(error.name)) {
        this.#unknown.add(error.name);
        this.log(signal?.aborted ? "info" : "warn", "outcome-unknown", () => ({ call: `POST ${this.baseUrl}/hub/${this.hub}/bits/earn`, error: error.name }));
      }
      error.message += MAY_HAVE_BEEN_APPLIED;
    }
    return error;
  }

  /**
   * Awards many wallets at once: `concurrency` awards in flight, the input read only as fast as they
   * are sent (an array, a generator, an async stream of rows). Each award is validated first; a bad
   * one, a `ref` used by a different award (`RefConflictError`) or a failed send is a failure of that
   * award only, with its typed error. An identical repeat of a `ref` is skipped. With a `journal`,
   * a run again after a crash or an abort sends only what the journal does not show as applied.
   * @throws {CampaignStoppedError} when `signal` aborts (`reason` `"aborted"`, after awards in flight
   * settled), or when `maxFailures` awards in a row are refused for a cause no later award escapes
   * (a wrong key or secret): see the option; its `summary` and `inFlight` say what was done. The
   * journal's or the input's own errors.
   * @example
   * ```ts
   * const summary = await server.awardMany(awards, {
   *   concurrency: 16,
   *   journal: "./season-7.journal",
   *   onProgress: (p) => console.log(`${p.done}/${p.total ?? "?"}`),
   * });
   * for (const { index, error } of summary.failed) console.error(index, error.message);
   * ```
   */
  async awardMany(awards: AwardSource, options?: CampaignOptions): Promise<CampaignSummary> {
    // Loaded on first use, so the entry's cold import does not carry the campaign code.
    const campaign = await import("./campaign/campaign");
    // A duplicate counts apart only when an earlier call claimed the ref: one that this very call's
    // lost attempt may have applied is this campaign's own award.
    const send = async (award: AwardInput, { signal }: { signal: AbortSignal }) => {
      const { duplicate, mayHaveBeenAppliedEarlier } = await this.awardPoints(award, { signal }).withResponse();
      return { duplicate: duplicate && !mayHaveBeenAppliedEarlier };
    };
    // One observed call; the awards, sent inside it, are its own.
    return this.observe({ name: "awardMany", method: "POST", segments: awardSegments(this.hub), template: "/hub/{slug}/bits/earn" }, (trace) =>
      campaign.awardMany(awards, send, options, { ...campaignContext, observe: trace?.progress, openJournal: (path) => openJournal(path, this.hub) }),
    );
  }
}
