import { HTTPError } from "ky";
import { apiErrorFromResponse } from "../errors/api-error-from-response";
import { HubAbortError } from "../errors/hub-abort-error";
import { HubConnectionError } from "../errors/hub-connection-error";
import { HubError } from "../errors/hub-error";
import { HubRedirectError } from "../errors/hub-redirect-error";
import { HubTimeoutError } from "../errors/hub-timeout-error";
import { AttemptTimeoutError } from "./attempt";
import { excerpt, headersToObject, keptBody, parseJson, readText } from "./body";
import { innermostMessage, systemErrorCode } from "./delivery";
import { extractErrorFields } from "./error-body";
import { UserHookError } from "./user-hook";

/** What the transport knows about the call when it fails. */
export interface FailureContext {
  signal?: AbortSignal | undefined;
  timeout: number | false;
  /** The origin the request went to: errors name it, never the path or query. */
  origin: string;
  /** Whether the call is a write (only a write can have been applied). */
  write: boolean;
  /** Whether an attempt was handed to `fetch`. */
  started: boolean;
  /** Whether an attempt may have reached the server: a 5xx or 408 answer, or a failure after connecting. */
  sent: boolean;
  /** Whether a retry was refused because the client's retry budget was spent. */
  budgetExhausted: boolean;
}

const BUDGET_SPENT = " Not retried: the client's retry budget is spent.";
const MAY_HAVE_BEEN_APPLIED = " It may have been applied: retrying with the same ref is safe.";

/**
 * The one place where ky's errors become the SDK's: nothing ky-typed reaches a user, and the
 * request (which carries `x-api-key` and signatures) is never attached to an error.
 */
export async function toHubError(error: unknown, context: FailureContext): Promise<unknown> {
  if (error instanceof HubError) return error;
  if (error instanceof UserHookError) return error.cause;
  // A timeout or an abort cuts an attempt at an unknown point: it may have been sent.
  const cut = context.started && (error instanceof AttemptTimeoutError || context.signal?.aborted === true);
  const mayHaveBeenApplied = context.write && (context.sent || cut);
  const applied = { mayHaveBeenApplied };
  const note = (context.budgetExhausted ? BUDGET_SPENT : "") + (mayHaveBeenApplied ? MAY_HAVE_BEEN_APPLIED : "");
  if (context.signal?.aborted) {
    const aborted = new HubAbortError({ cause: context.signal.reason, ...applied });
    aborted.message += note;
    return aborted;
  }
  if (error instanceof HTTPError) return fromResponse(error.response, error.request.url, note, mayHaveBeenApplied);
  if (error instanceof AttemptTimeoutError) {
    // Only an attempt with a timeout times out: `timeout` is a number here.
    const timeout = new HubTimeoutError(Number(context.timeout), { origin: context.origin, ...applied });
    timeout.message += note;
    return timeout;
  }
  const code = systemErrorCode(error);
  const detail = code ?? innermostMessage(error) ?? "no HTTP response";
  return new HubConnectionError(`Connection to ${context.origin} failed: ${detail}.${note}`, { cause: error, code, origin: context.origin, ...applied });
}

async function fromResponse(response: Response, requestUrl: string, note: string, mayHaveBeenApplied: boolean) {
  // Only answers outside 2xx come here: below 400, that is a redirect (opaque in browsers: status 0).
  if (response.status < 400) {
    return redirectError(response, requestUrl, "the SDK follows no redirect here");
  }
  const text = await readText(response);
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : keptBody(text);
  const fields = extractErrorFields(body);
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const detail = fields.message ?? (excerpt(text) || "(empty body)");
  return apiErrorFromResponse({
    status: response.status,
    code: fields.code,
    message: `${statusLine}${fields.code ? ` [${fields.code}]` : ""}: ${detail}${note}`,
    body,
    headers: headersToObject(response.headers),
    mayHaveBeenApplied,
  });
}

/** A redirect answer as an error; `location` resolved against the URL that was asked. */
export function redirectError(response: Response, requestUrl: string, reason: string): HubRedirectError {
  const header = response.headers.get("location");
  let location: string | undefined;
  try {
    location = header === null ? undefined : new URL(header, requestUrl).href;
  } catch {
    location = header ?? undefined;
  }
  return new HubRedirectError({ status: response.status, location, reason });
}
