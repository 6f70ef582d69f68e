/**
 * @module
 * The server-side client: every read of {@link HubClient}, plus signed awards.
 */
import { CLIENT_OPTIONS, SERVER_ONLY_OPTIONS } from "../client/check-input";
import { HubClient, type HubCall } from "../client/hub-client";
import type { HubPromise, WithWriteResponse } from "../core/hub-promise";
import { WritePolicy } from "../core/http/write-policy";
import type { HubClientOptions, RequestOptions } from "../core/types/options";
import type { HubData, HubSchemas } from "../core/types/schemas";
import { parseAward, type AwardInput } from "./award-schema";
import { assertNotBrowser } from "./browser-guard";
import type { AwardSource } from "./campaign/award-source";
import { campaignContext } from "./campaign/campaign-context";
import { checkCampaign } from "./campaign/check-campaign";
import type { CampaignOptions, CampaignProgress, CampaignSummary } from "./campaign/types";
import type { ServerRuntime } from "./server-api";
import { traceCall, type TracedCall } from "../core/telemetry/trace-call";
import type { HubTelemetry } from "../core/telemetry/types";
import type { Log } from "../core/log";
import { ServerClock } from "./server-clock";
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
  readonly #clock: ServerClock;
  readonly #runtime: ServerRuntime;
  readonly #telemetry: HubTelemetry | undefined;

  /** @throws {BrowserNotAllowedError} in a browser; {@link HubValidationError} for bad options. */
  constructor(options: HubServerClientOptions<S>, runtime: ServerRuntime) {
    assertNotBrowser(options?.dangerouslyAllowBrowser);
    const clock = new ServerClock();
    // The pipeline signs every write with this policy; it is made once HubClient's own checks passed.
    super(options, (log) => writePolicy(options, runtime, clock, log));
    this.#clock = clock;
    this.#runtime = runtime;
    this.#telemetry = options.telemetry;
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
    return this.request(awardCall(this.hub, award), options);
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
}

/** The write policy of one client: its key checked and prepared once, and its clock. */
function writePolicy(options: HubServerClientOptions, { backend }: ServerRuntime, clock: ServerClock, log: Log): WritePolicy {
  checkKeyOptions(options);
  // Derived once per client; only the prepared signer is kept, never the secret itself.
  const signer = Promise.resolve(options.signingKey ?? backend.sha256Hex(options.secret!)).then((key) => backend.signerFor(key));
  signer.catch(() => undefined); // surfaced on the first award instead
  return new WritePolicy({ signer: { sign: async (fields) => (await signer)(signingPayload(fields)), sha256Hex: backend.sha256Hex }, clock, log });
}

/**
 * An award as a call: its body serialized once from the fields checked (the award's own, in the
 * caller's order), so that the string sent is the string signed, on every attempt. A bad award is
 * thrown by `check`, inside the call (a rejection, traced), before anything is sent.
 */
function awardCall(hub: string, award: AwardInput): HubCall & TracedCall & { method: "POST" } {
  const call = { method: "POST", segments: awardSegments(hub), kind: "object-or-empty", operation: "award" } as const;
  try {
    const checked = parseAward(award);
    return { ...call, body: JSON.stringify(checked), ref: checked.ref, wallet: checked.wallet };
  } catch (error) {
    return {
      ...call,
      check: () => {
        throw error;
      },
    };
  }
}
