/**
 * The one place where a failed call becomes the SDK's error: nothing ky-typed reaches a user, and
 * the request (which carries `x-api-key` and signatures) is never attached to an error.
 */
import { HTTPError, TimeoutError } from "ky";
import { apiErrorFromResponse } from "../errors/api-error-from-response";
import { HubAbortError } from "../errors/hub-abort-error";
import { HubConnectionError } from "../errors/hub-connection-error";
import { HubRedirectError } from "../errors/hub-redirect-error";
import { HubTimeoutError } from "../errors/hub-timeout-error";
import { errorFields, excerpt, headersToObject, keptBody, parseJson } from "./body";
import { systemErrorCode, type Call } from "./call";

const BUDGET_SPENT = " Not retried: the client's retry budget is spent.";

/** The error a failed call throws. Errors that are not the transport's (a hook's, a signer's, a validation) pass unchanged. */
export async function toHubError(error: unknown, call: Call, origin: string): Promise<unknown> {
  const mayHaveBeenApplied = call.mayHaveBeenApplied();
  // A write that may have been applied: the server client adds that to the end of the message.
  let note = call.budgetSpent ? BUDGET_SPENT : "";
  let converted: Error & { message: string };
  const aborted = call.spec.signal?.aborted;
  // How many attempts and how long, when there was more than one or none got an answer: a failure
  // after 30 s of retries must not read as one timeout of 10 s. The caller who aborted knows.
  if (!aborted && (call.attempts > 1 || !(error instanceof HTTPError))) note = ` ${call.attemptsSummary()}.${note}`;
  if (aborted) converted = new HubAbortError({ cause: call.spec.signal!.reason, mayHaveBeenApplied });
  else if (error instanceof HTTPError) return withAttempts(await fromResponse(error.response, error.request.url, note, mayHaveBeenApplied, call.bodyOf(error.response)), call);
  // Only an attempt with a timeout times out: `timeout` is a number here.
  else if (error instanceof TimeoutError) converted = new HubTimeoutError({ timeout: Number(call.timeout), origin, mayHaveBeenApplied });
  else if (call.isFetchFailure(error)) {
    const code = systemErrorCode(error);
    converted = new HubConnectionError({ message: `Connection to ${origin} failed: ${code ?? innermostMessage(error) ?? "no HTTP response"}.`, cause: error, code, origin, mayHaveBeenApplied });
  } else return error;
  converted.message += note;
  return withAttempts(converted, call);
}

/** The error, with how many attempts the call sent (`HubError.attempts`). */
function withAttempts<E extends Error>(error: E, call: Call): E {
  (error as { attempts?: number }).attempts = call.attempts;
  return error;
}

/** The innermost message of the cause chain, with any query string cut (it may hold data). */
export function innermostMessage(error: unknown): string | undefined {
  let message: string | undefined;
  for (let current = error, depth = 0; depth < 6 && current instanceof Error; current = current.cause, depth++) {
    if (current.message) message = current.message;
  }
  return message?.replace(/\?[^\s)"']*/g, "?…");
}

function fromResponse(response: Response, requestUrl: string, note: string, mayHaveBeenApplied: boolean, text: string) {
  // Only answers outside 2xx come here: below 400, that is a redirect (opaque in browsers: status 0).
  if (response.status < 400) return redirectError(response, requestUrl, "the SDK follows no redirect here", { mayHaveBeenApplied, note });
  const parsed = parseJson(text);
  const body = parsed ? parsed.value : keptBody(text);
  const fields = errorFields(body);
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  return apiErrorFromResponse({
    status: response.status,
    code: fields.code,
    message: `${statusLine}${fields.code ? ` [${fields.code}]` : ""}: ${fields.message ?? (excerpt(text) || "(empty body)")}${note}`,
    body,
    headers: headersToObject(response.headers),
    mayHaveBeenApplied,
  });
}

/** A redirect answer as an error; `location` resolved against the URL that was asked, when it parses. */
export function redirectError(response: Response, requestUrl: string, reason: string, verdict?: { mayHaveBeenApplied: boolean; note: string }): HubRedirectError {
  const header = response.headers.get("location") ?? undefined;
  let location = header;
  try {
    location = header && new URL(header, requestUrl).href;
  } catch {
    // Kept as sent: the error names it, and nothing follows it.
  }
  const error = new HubRedirectError({ status: response.status, location, reason, mayHaveBeenApplied: verdict?.mayHaveBeenApplied });
  error.message += verdict?.note ?? "";
  return error;
}
