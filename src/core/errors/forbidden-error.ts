import { HubApiError } from "./hub-api-error";

/**
 * The key is not allowed here (403): most often it is scoped to another hub than the one addressed.
 *
 * @example
 * ```ts
 * if (error instanceof ForbiddenError) console.log(error.status); // 403
 * ```
 */
export class ForbiddenError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "ForbiddenError" as const;
}
