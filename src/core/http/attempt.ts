import { where, type Log } from "../log";
import type { RequestEvent } from "../types/options";
import { outcomeUnknown } from "./delivery";
import type { RateGate } from "./rate-gate";
import { parseRetryAfter } from "./retry-after";
import { callUserHook } from "./user-hook";

/**
 * One outgoing attempt as a `beforeSend` step sees it, after the rate gate and just before
 * `fetch`: a write's signer stamps its headers here.
 * @example
 * ```ts
 * const stamp = (attempt: OutgoingAttempt) => attempt.headers.set("x-trace", attempt.url.pathname);
 * ```
 */
export interface OutgoingAttempt {
  /** HTTP method, upper case. */
  method: string;
  /** The URL sent to (its `pathname` is what a signature covers). */
  url: URL;
  /** The headers sent; set more here. */
  headers: Headers;
}

/** One call's attempts: everything the per-attempt fetch needs, and what it learns. */
export interface AttemptPlan {
  fetch: typeof globalThis.fetch;
  gate: RateGate;
  /** The call's headers; each attempt sends a fresh copy (a signer or a custom fetch may change it). */
  headers: Headers;
  body: string | undefined;
  /**
   * The call's own signal (the caller's, or a shared read's). ky's request signal fires only with
   * it (ky's own timeout is off): without one, an attempt has no signal to follow.
   */
  signal?: AbortSignal | undefined;
  timeout: number | false;
  maxRetryAfterMs: number;
  beforeSend?: ((attempt: OutgoingAttempt) => void | Promise<void>) | undefined;
  onRequest?: ((event: RequestEvent) => void) | undefined;
  log: Log;
  /**
   * Whether a failed attempt may have reached the server (writes pass `mayHaveBeenSent`; reads
   * need no answer, since only a write can have been applied).
   * @default every failure may have been sent
   */
  mayHaveBeenSent?: ((error: unknown) => boolean) | undefined;
  /** Whether an attempt started, and whether one may have reached the server. */
  delivery: { started: boolean; sent: boolean };
}

/** An attempt ran past its timeout (the SDK's own: waiting in the rate gate does not count). */
export class AttemptTimeoutError extends Error {
  override name = "AttemptTimeoutError" as const;
}

/**
 * The `fetch` ky calls for each attempt of one call. In order: wait for the rate gate, start the
 * attempt's timeout, let the signer stamp the headers, then hand `fetch` the URL and the exact
 * body string — never ky's `Request`, whose streamed body patched fetches (Next.js) send chunked
 * without a length — with redirects left to the transport.
 */
export function attemptFetch(plan: AttemptPlan): (input: unknown) => Promise<Response> {
  let attempt = 0;
  return async (input) => {
    const request = input as Request; // ky always hands its own Request to fetch
    attempt += 1;
    await plan.gate.acquire(request.signal);
    const sentAt = Date.now();
    // ky's per-request signal, not the call's: one caller's signal may serve many calls at once
    // (a campaign's), and one listener per attempt on it would pile up.
    const limit = withTimeout(plan.signal && request.signal, plan.timeout);
    try {
      // The headers come from the plan, not ky's Request: ky is given none, which spares it
      // merging and copying them several times per call. A read has no signer: no URL to parse.
      const headers = new Headers(plan.headers);
      if (plan.beforeSend) await plan.beforeSend({ method: request.method, url: new URL(request.url), headers });
      callUserHook(plan.onRequest, { type: "request", method: request.method, url: request.url, attempt });
      plan.delivery.started = true;
      let response: Response | undefined;
      let failure: unknown;
      try {
        response = await send(plan, request, headers, limit.signal);
      } catch (error) {
        failure = error;
        throw error;
      } finally {
        const ms = Date.now() - sentAt;
        const answer = response;
        plan.log("debug", "attempt", () => ({ method: request.method, url: where(request.url), attempt, ms, status: answer?.status, requestId: answer?.headers.get("x-request-id") ?? undefined, error: (failure as Error)?.message }));
      }
      const requestId = response.headers.get("x-request-id") ?? undefined;
      plan.delivery.sent ||= outcomeUnknown(response.status);
      plan.gate.observe(response.status, retryAfterMs(response.headers), sentAt, plan.maxRetryAfterMs);
      callUserHook(plan.onRequest, { type: "response", method: request.method, url: request.url, attempt, status: response.status, requestId });
      return response;
    } finally {
      limit.dispose();
      plan.gate.release();
    }
  };
}

async function send(plan: AttemptPlan, request: Request, headers: Headers, signal: AbortSignal): Promise<Response> {
  try {
    return await plan.fetch.call(globalThis, request.url, { method: request.method, headers, body: plan.body ?? null, signal, redirect: "manual" });
  } catch (error) {
    plan.delivery.sent ||= plan.mayHaveBeenSent?.(error) ?? true;
    if (signal.reason instanceof AttemptTimeoutError && !request.signal.aborted) throw signal.reason;
    throw error;
  }
}

const retryAfterMs = (headers: Headers) => {
  const seconds = parseRetryAfter(headers.get("retry-after"));
  return seconds === undefined ? undefined : seconds * 1000;
};

/** A signal that aborts with the parent or after `timeout` ms; `dispose` clears the timer. Exported for its tests. */
export function withTimeout(parent: AbortSignal | undefined, timeout: number | false) {
  const controller = new AbortController();
  const follow = () => controller.abort(parent!.reason);
  if (parent?.aborted) follow();
  else {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: `once` is tidiness only: an abort event fires once, and dispose removes the listener
    parent?.addEventListener("abort", follow, { once: true });
  }
  const timer =
    timeout === false ? undefined : setTimeout(() => controller.abort(new AttemptTimeoutError(`attempt timed out after ${timeout} ms`)), timeout);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", follow);
    },
  };
}
