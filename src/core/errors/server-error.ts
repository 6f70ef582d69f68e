import { HubApiError } from "./hub-api-error";

/**
 * The server or a proxy in front of it failed (status 500 or above), after retries. The body may
 * be an HTML page from a proxy: it is kept as text in `body`.
 *
 * @example
 * ```ts
 * if (error instanceof ServerError) console.log(error.status, error.body);
 * ```
 */
export class ServerError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "ServerError" as const;
}
