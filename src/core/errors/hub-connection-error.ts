import { HubError, type HubErrorInit } from "./hub-error";

/**
 * The request did not get an HTTP answer: DNS, refused connection, reset socket, CORS refusal
 * in a browser. Retries (if any) were used up. The message names the origin and the system error
 * code; the underlying error is in `cause`.
 *
 * @example
 * ```ts
 * if (error instanceof HubConnectionError) console.log(error.code, error.origin); // "ECONNREFUSED" "http://127.0.0.1:4000"
 * ```
 */
export class HubConnectionError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubConnectionError";
  /** The system error code found in the cause chain (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`…), when there is one. */
  declare readonly code: string | undefined;
  /** The origin the request was sent to (never its path or query). */
  declare readonly origin: string | undefined;

  constructor(init: Partial<HubErrorInit> & { code?: string | undefined; origin?: string | undefined } = {}) {
    super({ ...init, message: init.message ?? "Connection error: the request got no HTTP response." });
    this.code = init.code;
    this.origin = init.origin;
  }
}
