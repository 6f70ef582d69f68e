import { HubApiError } from "./hub-api-error";

/**
 * The key is missing or unknown, or a signed write was refused (401): bad signature or timestamp outside the window.
 *
 * @example
 * ```ts
 * if (error instanceof UnauthorizedError) console.log(error.status); // 401
 * ```
 */
export class UnauthorizedError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "UnauthorizedError" as const;
}
