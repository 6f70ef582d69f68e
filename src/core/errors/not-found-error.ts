import { HubApiError } from "./hub-api-error";

/**
 * The resource does not exist (404), for example an unknown hub slug.
 *
 * @example
 * ```ts
 * if (error instanceof NotFoundError) console.log(error.status); // 404
 * ```
 */
export class NotFoundError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "NotFoundError" as const;
}
