import { HTTPError, TimeoutError } from "ky";
import { apiErrorFromResponse } from "../errors/api-error-from-response";
import { HubAbortError } from "../errors/hub-abort-error";
import { HubConnectionError } from "../errors/hub-connection-error";
import { HubError } from "../errors/hub-error";
import { HubTimeoutError } from "../errors/hub-timeout-error";
import { excerpt, headersToObject, parseJson, readText } from "./body";
import { extractErrorFields } from "./error-body";
import { UserHookError } from "./user-hook";

/**
 * The one place where ky's errors become the SDK's: nothing ky-typed reaches a user, and the
 * request (which carries `x-api-key` and signatures) is never attached to an error.
 */
export async function toHubError(error: unknown, context: { signal?: AbortSignal | undefined; timeout: number | false }): Promise<unknown> {
  if (error instanceof HubError) return error;
  if (error instanceof UserHookError) return error.cause;
  if (context.signal?.aborted) return new HubAbortError({ cause: context.signal.reason });
  if (error instanceof HTTPError) return fromResponse(error.response);
  if (error instanceof TimeoutError) return new HubTimeoutError(context.timeout === false ? 0 : context.timeout);
  const message = error instanceof Error ? `Connection error: ${error.message}` : undefined;
  return new HubConnectionError(message, { cause: error });
}

async function fromResponse(response: Response) {
  const text = await readText(response);
  const parsed = parseJson(text);
  const body = parsed.ok ? parsed.value : text;
  const fields = extractErrorFields(body);
  const statusLine = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const detail = fields.message ?? (excerpt(text) || "(empty body)");
  return apiErrorFromResponse({
    status: response.status,
    code: fields.code,
    message: `${statusLine}${fields.code ? ` [${fields.code}]` : ""}: ${detail}`,
    body,
    headers: headersToObject(response.headers),
  });
}
