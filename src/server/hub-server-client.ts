/**
 * @module
 * The server-side client: every read of {@link HubClient}, plus signed awards.
 */
import { CLIENT_OPTIONS, SERVER_ONLY_OPTIONS } from "../client/check-input";
import { HubClient } from "../client/hub-client";
import { HubApiError, type SigningDiagnostics } from "../core/errors/hub-api-error";
import { HubPromise, type WithWriteResponse } from "../core/hub-promise";
import { parseHttpDate } from "../core/http/body";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { HubData, HubSchemas } from "../core/types/schemas";
import { parseAward, type AwardInput } from "./award-schema";
import { assertNotBrowser } from "./browser-guard";
import type { AwardSource } from "./campaign/award-source";
import { campaignContext } from "./campaign/campaign-context";
import { neverSent } from "./never-sent";
import { logUnknownOutcome, noteMayHaveBeenApplied } from "./unknown-outcome";
import { checkCampaign } from "./campaign/check-campaign";
import type { CampaignOptions, CampaignProgress, CampaignSummary } from "./campaign/types";
import type { HmacBackend, PayloadSigner } from "./crypto/backend";
import type { ServerRuntime } from "./server-api";
import { internals, type ClientInternals } from "../core/internal";
import { traceCall } from "../core/telemetry/trace-call";
import type { HubTelemetry } from "../core/telemetry/types";
import { explainRefusal } from "./explain-refusal";
import { REFUSAL_STATUSES } from "./refusal";
import { ServerClock, SIGNATURE_WINDOW_SECONDS } from "./server-clock";
import { checkKeyOptions } from "./signing";
import { awardSegments, signingPayload } from "./signing-payload";

/**
 * Options of a {@link HubServerClient}: those of `HubClient`, plus the key material.
 * @example
 * ```ts
 * const options: HubServerClientOptions = { baseUrl, clientId, hub: "alpha", secret: process.env.HUB_SECRET! };
 * ```
 */
export interface HubServerClientOptions<S extends HubSchemas = HubSchemas> extends HubClientOptions<S> {
  /**
   * The API secret shown once in the studio. It is hashed at construction and never sent,
   * logged or kept in a readable property. Give this or `signingKey`.
   * @example process.env.HUB_SECRET
   */
  secret?: string;
  /**
   * Instead of `secret`: its lowercase hex SHA-256 (see `deriveSigningKey`), if you store that.
   * @example process.env.HUB_SIGNING_KEY
   */
  signingKey?: string;
  /**
   * Lets the client run where a `window` or `document` exists. Only for tests in a DOM
   * environment: in a real browser the secret would be public.
   * @default false
   */
  dangerouslyAllowBrowser?: boolean;
}

const SKEW_MARGIN_SECONDS = 2; // the Date header has whole seconds

/**
 * The shared implementation; each runtime entry subclasses it with its crypto backend. Use
 * `HubServerClient` from `public-hub-sdk/server`.
 * @example
 * ```ts
 * // Construct HubServerClient instead; this class is what it extends.
 * const server = new HubServerClient({ baseUrl, clientId, hub: "alpha", secret });
 * server instanceof HubServerClientBase; // true
 * ```
 */
export class HubServerClientBase<S extends HubSchemas = {}> extends HubClient<S> {
  /**
   * `HubClient`'s option names and the key material's: any other name is refused.
   * @example
   * ```ts
   * new HubServerClient({ baseUrl, clientId, hub: "alpha", secert: secret }); // HubValidationError: did you mean "secret"?
   * ```
   */
  protected static override readonly optionNames: readonly string[] = [...CLIENT_OPTIONS, ...SERVER_ONLY_OPTIONS];
  readonly #signer: Promise<PayloadSigner>;
  readonly #clock = new ServerClock();
  readonly #backend: HmacBackend;
  readonly #runtime: ServerRuntime;
  readonly #internals: ClientInternals;
  readonly #telemetry: HubTelemetry | undefined;

  /** @throws {BrowserNotAllowedError} in a browser; {@link HubValidationError} for bad options. */
  constructor(options: HubServerClientOptions<S>, runtime: ServerRuntime) {
    assertNotBrowser(options?.dangerouslyAllowBrowser);
    super(options);
    checkKeyOptions(options);
    const { backend } = runtime;
    this.#runtime = runtime;
    this.#backend = backend;
    this.#telemetry = options.telemetry;
    // Derived once per client; only the prepared signer is kept, never the secret itself.
    const signingKey = options.signingKey ?? backend.sha256Hex(options.secret!);
    this.#signer = Promise.resolve(signingKey).then((key) => backend.signerFor(key));
    this.#signer.catch(() => undefined); // surfaced on the first award instead
    this.#internals = internals.get(this)!;
    // Every answer, reads included, updates the server clock, so a write can be right the first time.
    this.#internals.transport.context.onAnswer = (headers) => {
      if (this.#clock.observe(headers)) this.log("info", "clock", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
    };
    this.#internals.transport.context.neverSent = neverSent;
    this.#internals.transport.context.onUnknownOutcome = logUnknownOutcome(this.log);
  }

  /** Milliseconds between this machine's clock and the server's, from the latest `Date` header. */
  get clockOffsetMs(): number {
    return this.#clock.offsetMs;
  }

  /**
   * Awards points to a wallet with a signed `POST /hub/{slug}/bits/earn`. Retries (network errors,
   * 408, 429, 5xx) resend the same body and `ref`, freshly signed, so the server applies it once.
   * @throws {HubValidationError} for a bad award; nothing is sent.
   * @example
   * ```ts
   * await server.awardPoints({ wallet: "0xabc", amount: 10, reason: "quest", ref: "quest-42:0xabc" });
   * await server.awardPoints({ wallet: "0xabc", kind: "daily-login", ref: "login-2026-11-22:0xabc" });
   * ```
   */
  awardPoints<T = HubData<S, "award">>(award: AwardInput, options?: RequestOptions<T>): HubPromise<T, WithWriteResponse<T>> {
    // One traced call, whether it is sent once or re-sent for the clock.
    const segments = awardSegments(this.hub);
    const call = { method: "POST", segments, ref: textOf(award?.ref), wallet: textOf(award?.wallet) } as const;
    return HubPromise.run<T, WithWriteResponse<T>>(() => traceCall(this.#telemetry, this, call, async (trace) => {
      // Serialized once from the fields checked (the award's own, in the caller's order): the
      // string sent is the string signed, on every attempt.
      const body = JSON.stringify(parseAward(award));
      let signed: Omit<SigningDiagnostics, "bodySha256"> | undefined;
      const send = (appliedEarlier: boolean) =>
        this.#internals.send<T>(
          {
            appliedEarlier,
            method: "POST",
            segments,
            body,
            kind: "object-or-empty",
            operation: "award",
            trace,
            // After the rate gate, just before each attempt: each attempt is signed when it is sent.
            sign: async (request) => {
              signed = { timestamp: this.#clock.timestamp(), method: request.method, path: new URL(request.url).pathname, clockOffsetMs: this.#clock.offsetMs };
              const signature = (await this.#signer)(signingPayload({ ...signed, body }));
              request.headers.set("x-api-timestamp", signed.timestamp);
              request.headers.set("x-api-signature", await signature);
            },
          },
          options,
        ).catch((error: unknown) => {
          throw noteMayHaveBeenApplied(error);
        });
      try {
        try {
          return await send(false);
        } catch (error) {
          if (!this.#refusedForSkew(error, signed?.timestamp)) throw error;
          this.log("warn", "clock-retry", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
          // Once, now signed in server time; the verdict carries over (the first send may have been
          // applied: the re-send's call starts from it), and the refused call's attempts are this award's too.
          const resent = await send(error.mayHaveBeenApplied);
          return { ...resent, attempts: (error.attempts ?? 0) + resent.attempts };
        }
      } catch (error) {
        if (error instanceof HubApiError && REFUSAL_STATUSES.has(error.status) && signed) {
          explainRefusal(error, { ...signed, bodySha256: await this.#backend.sha256Hex(body) });
        }
        throw error;
      }
    }));
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
    checkCampaign(awards, options, false);
    // Loaded on first use, so the entry's cold import does not carry the campaign code.
    const campaign = await import("./campaign/award-many");
    const send = (award: AwardInput, { signal }: { signal: AbortSignal }) => this.awardPoints(award, { signal });
    // One traced call; the awards, sent inside it, are its children.
    const { openJournal } = this.#runtime;
    return traceCall(this.#telemetry, this, { method: "POST", segments: awardSegments(this.hub), name: "awardMany" }, (trace) => {
      const onProgress = trace && ((progress: CampaignProgress) => (trace.progress(progress), options?.onProgress?.(progress)));
      return campaign.awardMany(awards, send, { ...options, ...(onProgress && { onProgress }) }, { ...campaignContext, openJournal: openJournal && ((path) => openJournal(path, this.hub)) });
    });
  }

  /** A refusal whose `Date` shows our timestamp was outside the server's window. */
  #refusedForSkew(error: unknown, signedAt: string | undefined): error is HubApiError {
    if (!(error instanceof HubApiError) || !REFUSAL_STATUSES.has(error.status)) return false;
    if (error.headers.age !== undefined) return false; // a cached copy's Date tells nothing
    // No Date, an implausible one, or nothing signed: NaN, which is never outside the window.
    const serverSeconds = Number(parseHttpDate(error.headers.date)) / 1000;
    return Math.abs(serverSeconds - Number(signedAt)) > SIGNATURE_WINDOW_SECONDS - SKEW_MARGIN_SECONDS;
  }
}

/** A field of the caller's award as given, for telemetry: the award is checked only inside the call. */
const textOf = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
