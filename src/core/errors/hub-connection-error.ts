import { HubError } from "./hub-error";

/**
 * The request did not get an HTTP answer: DNS, refused connection, reset socket, CORS refusal
 * in a browser. Retries (if any) were used up. The underlying error is in `cause`.
 *
 * @example
 * ```ts
 * if (error instanceof HubConnectionError) console.log("network problem:", error.cause);
 * ```
 */
export class HubConnectionError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubConnectionError";

  constructor(message = "Connection error: the request got no HTTP response.", options?: { cause?: unknown }) {
    super(message, options);
  }
}
