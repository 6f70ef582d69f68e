import { HubApiError } from "./hub-api-error";

/**
 * The request was refused as malformed (400): a missing or invalid parameter or body field.
 *
 * @example
 * ```ts
 * if (error instanceof BadRequestError) console.log(error.status); // 400
 * ```
 */
export class BadRequestError extends HubApiError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "BadRequestError" as const;
}
