/**
 * @module
 * The server-side client: every read of {@link HubClient}, plus signed awards.
 */
import { HubClient } from "../client/hub-client";
import { HubApiError, type SigningDiagnostics } from "../core/errors/hub-api-error";
import { HubPromise } from "../core/hub-promise";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { AwardResult } from "../core/types/responses";
import { parseAward, type AwardInput } from "./award-schema";
import { assertNotBrowser } from "./browser-guard";
import type { AwardSource } from "./campaign/award-source";
import { campaignContext } from "./campaign/campaign-context";
import type { CampaignOptions, CampaignSummary } from "./campaign/types";
import type { HmacBackend, PayloadSigner } from "./crypto/backend";
import type { ServerRuntime } from "./server-api";
import { internals, type ClientInternals } from "../core/internal";
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
export interface HubServerClientOptions extends HubClientOptions {
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
export class HubServerClientBase extends HubClient {
  readonly #signer: Promise<PayloadSigner>;
  readonly #clock = new ServerClock();
  readonly #backend: HmacBackend;
  readonly #runtime: ServerRuntime;
  readonly #internals: ClientInternals;

  /** @throws {BrowserNotAllowedError} in a browser; {@link HubValidationError} for bad options. */
  constructor(options: HubServerClientOptions, runtime: ServerRuntime) {
    assertNotBrowser(options?.dangerouslyAllowBrowser);
    super(options);
    checkKeyOptions(options);
    const { backend } = runtime;
    this.#runtime = runtime;
    this.#backend = backend;
    // Derived once per client; only the prepared signer is kept, never the secret itself.
    const signingKey = options.signingKey ?? backend.sha256Hex(options.secret!);
    this.#signer = Promise.resolve(signingKey).then((key) => backend.signerFor(key));
    this.#signer.catch(() => undefined); // surfaced on the first award instead
    this.#internals = internals.get(this)!;
    // Every answer, reads included, updates the server clock, so a write can be right the first time.
    this.#internals.transport.context.onAnswer = (headers) => {
      if (this.#clock.observe(headers)) this.log("info", "clock", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
    };
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
  awardPoints<T = AwardResult>(award: AwardInput, options?: RequestOptions<T>): HubPromise<T> {
    return HubPromise.run(async () => {
      parseAward(award);
      // Serialized once, as the caller wrote it: the string sent is the string signed, on every attempt.
      const body = JSON.stringify(award);
      let signed: Omit<SigningDiagnostics, "bodySha256"> | undefined;
      const send = () =>
        this.#internals.send<T>(
          {
            method: "POST",
            segments: awardSegments(this.hub),
            body,
            kind: "object-or-empty",
            // After the rate gate, just before each attempt: each attempt is signed when it is sent.
            sign: async (request) => {
              signed = { timestamp: this.#clock.timestamp(), method: request.method, path: new URL(request.url).pathname, clockOffsetMs: this.#clock.offsetMs };
              const signature = (await this.#signer)(signingPayload({ ...signed, body }));
              request.headers.set("x-api-timestamp", signed.timestamp);
              request.headers.set("x-api-signature", await signature);
            },
          },
          options,
        );
      try {
        try {
          return await send();
        } catch (error) {
          if (!this.#refusedForSkew(error, signed?.timestamp)) throw error;
          this.log("warn", "clock-retry", () => ({ offsetMs: Math.round(this.#clock.offsetMs) }));
          return await send(); // once, now signed in server time
        }
      } catch (error) {
        if (error instanceof HubApiError && REFUSAL_STATUSES.has(error.status) && signed) {
          explainRefusal(error, { ...signed, bodySha256: await this.#backend.sha256Hex(body) });
        }
        throw error;
      }
    });
  }

  /**
   * Awards many wallets at once: `concurrency` awards in flight, the input read only as fast as they
   * are sent (an array, a generator, an async stream of rows). Each award is validated first; a bad
   * one, a `ref` used by a different award (`RefConflictError`) or a failed send is a failure of that
   * award only, with its typed error. An identical repeat of a `ref` is skipped. With a `journal`,
   * a run again after a crash or an abort sends only what the journal does not show as applied.
   * @throws {HubAbortError} when `signal` aborts (after awards in flight settled); the journal's or
   * the input's own errors; {@link CampaignStoppedError} when `maxFailures` awards in a row are refused
   * for a cause no later award escapes (a wrong key or secret): see the option.
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
    const campaign = await import("./campaign/award-many");
    const send = (award: AwardInput, { signal }: { signal: AbortSignal }) => this.awardPoints(award, { signal });
    const { openJournal } = this.#runtime;
    return campaign.awardMany(awards, send, options ?? {}, { ...campaignContext, openJournal: openJournal && ((path) => openJournal(path, this.hub)) });
  }

  /** A refusal whose `Date` shows our timestamp was outside the server's window. */
  #refusedForSkew(error: unknown, signedAt: string | undefined): boolean {
    if (!(error instanceof HubApiError) || !REFUSAL_STATUSES.has(error.status)) return false;
    if (error.headers.age !== undefined) return false; // a cached copy's Date tells nothing
    // No Date, an unreadable one, or nothing signed: NaN, which is never outside the window.
    const serverSeconds = Date.parse(String(error.headers.date)) / 1000;
    return Math.abs(serverSeconds - Number(signedAt)) > SIGNATURE_WINDOW_SECONDS - SKEW_MARGIN_SECONDS;
  }
}
