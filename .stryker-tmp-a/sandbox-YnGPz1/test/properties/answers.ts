/**
 * Hostile answers for the property tests and their examples: a fake `fetch` that plays a list of
 * answers in turn (the last one repeats) and records every request it was handed. Bodies can be
 * cut, reset, stalled, deep or huge; headers hold whatever the test puts there.
 */
// @ts-nocheck


/** How an answer's body behaves. */
export type BodyPlan =
  | { kind: "text"; text: string }
  /** Part of the text, then the connection resets (undici's "terminated"). */
  | { kind: "reset"; text: string }
  /** Part of the text, then nothing: the body never ends. */
  | { kind: "stall"; text: string };

/** One answer of the fake server. */
export type Answer =
  | { kind: "response"; status: number; headers: Record<string, string>; body: BodyPlan }
  /** fetch rejects: `code` as undici nests it, two causes deep (ECONNREFUSED, ECONNRESET…). */
  | { kind: "network"; code: string }
  /** fetch never settles until its signal aborts (headers never arrive). */
  | { kind: "stall-headers" };

/** What the fake server saw of one attempt. */
export interface SeenRequest {
  url: string;
  method: string;
  headers: Headers;
  body: string | undefined;
}

/** A body stream that sends `text`, then resets, stalls or ends. Pulled lazily, as a socket. */
function bodyStream(plan: BodyPlan): ReadableStream<Uint8Array> | string | null {
  if (plan.kind === "text") return plan.text;
  const bytes = new TextEncoder().encode(plan.text);
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        if (bytes.length > 0) return controller.enqueue(bytes);
      }
      if (plan.kind === "reset") return controller.error(Object.assign(new TypeError("terminated"), { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) }));
      // A stalled body that does not even heed the signal (the worst a `fetch` option can do).
      return new Promise<void>(() => undefined);
    },
  });
}

/** A `Response` for an answer (statuses outside what `Response` allows are clamped by the caller). */
export function responseOf(answer: Extract<Answer, { kind: "response" }>): Response {
  const nullBody = [101, 103, 204, 205, 304].includes(answer.status);
  return new Response(nullBody ? null : bodyStream(answer.body), { status: answer.status, headers: headersAt(answer.headers) });
}

/** Header values as sent now: `@now+<ms>` is an HTTP date that many milliseconds from now (fake time too). */
function headersAt(headers: Record<string, string>): Record<string, string> {
  const now = ([, offset]: string[]) => new Date(Date.now() + Number(offset)).toUTCString();
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.startsWith("@now") ? now(value.split("+")) : value]));
}

/** A network failure as undici reports it: `TypeError: fetch failed`, the system code two causes deep. */
export function networkError(code: string): TypeError {
  return new TypeError("fetch failed", { cause: Object.assign(new Error(`connect ${code}`), { code }) });
}

/**
 * A fake `fetch` playing `answers` in turn (the last repeats); `onRequest` sees each request
 * before its answer (the award properties verify signatures there).
 */
export function scriptedFetch(answers: readonly Answer[], onRequest?: (request: SeenRequest, index: number) => void) {
  const seen: SeenRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const request: SeenRequest = {
      url: String(input instanceof Request ? input.url : input),
      method: init.method ?? "GET",
      headers: new Headers(init.headers),
      body: typeof init.body === "string" ? init.body : undefined,
    };
    const index = seen.push(request) - 1;
    onRequest?.(request, index);
    const answer = answers[Math.min(index, answers.length - 1)]!;
    const signal = init.signal ?? undefined;
    if (answer.kind === "network") throw networkError(answer.code);
    if (answer.kind === "stall-headers") {
      return new Promise<Response>((_resolve, reject) => {
        const abort = () => reject(signal!.reason);
        if (signal?.aborted) abort();
        else signal?.addEventListener("abort", abort, { once: true });
      });
    }
    return responseOf(answer);
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

/** A JSON answer. */
export const json = (status: number, value: unknown, headers: Record<string, string> = {}): Answer => ({
  kind: "response",
  status,
  headers: { "content-type": "application/json", ...headers },
  body: { kind: "text", text: JSON.stringify(value) },
});
