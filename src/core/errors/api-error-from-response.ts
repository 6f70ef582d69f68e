import { BadRequestError } from "./bad-request-error";
import { ForbiddenError } from "./forbidden-error";
import { HubApiError, type ApiErrorInit } from "./hub-api-error";
import { NotFoundError } from "./not-found-error";
import { RateLimitError } from "./rate-limit-error";
import { ServerError } from "./server-error";
import { UnauthorizedError } from "./unauthorized-error";
import { parseRetryAfter } from "../http/body";

const byStatus: Record<number, new (init: ApiErrorInit) => HubApiError> = {
  400: BadRequestError,
  401: UnauthorizedError,
  403: ForbiddenError,
  404: NotFoundError,
};

/** The one place that picks the error class for a status, so every path maps statuses alike. */
export function apiErrorFromResponse(init: ApiErrorInit): HubApiError {
  if (init.status === 429) return new RateLimitError({ ...init, retryAfter: parseRetryAfter(init.headers["retry-after"]) });
  if (init.status >= 500) return new ServerError(init);
  const ErrorClass = byStatus[init.status] ?? HubApiError;
  return new ErrorClass(init);
}
