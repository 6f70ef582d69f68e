/**
 * Base class of every error the SDK throws, so one `instanceof HubError` catches them all.
 *
 * @example
 * ```ts
 * try {
 *   await hub.getHub();
 * } catch (error) {
 *   if (error instanceof HubError) console.error(error.name, error.message);
 * }
 * ```
 */
export class HubError extends Error {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name: string = "HubError";
  /**
   * True when a write failed after it may have reached the server (a reset or timeout after
   * sending, a 5xx): it may have been applied. Retrying with the same `ref` is safe either way.
   * Always false for reads and for failures before anything was sent.
   */
  declare readonly mayHaveBeenApplied: boolean;
  /**
   * How many attempts the call sent before it failed (retries included); undefined when nothing
   * was attempted (bad input) or the error is not one call's.
   */
  declare readonly attempts?: number | undefined;

  constructor(message?: string, options?: { cause?: unknown; mayHaveBeenApplied?: boolean | undefined }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.mayHaveBeenApplied = options?.mayHaveBeenApplied ?? false;
  }

  /**
   * What `JSON.stringify` shows: the name, the message (which `Error` hides from JSON) and the
   * subclass's public fields. Never key material, never the request.
   * @example
   * ```ts
   * logger.error(JSON.stringify(error)); // {"name":"NotFoundError","message":"404 …","status":404,…}
   * ```
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    for (const field of JSON_FIELDS) {
      const value = (this as Record<string, unknown>)[field];
      if (value !== undefined) json[field] = value;
    }
    return json;
  }
}

// Public fields of the subclasses that are safe and useful in logs (bodies and headers are not:
// they may be large, and headers may carry cookies).
const JSON_FIELDS = ["status", "code", "requestId", "problem", "issues", "retryAfter", "timeout", "location", "origin", "signing", "mayHaveBeenApplied", "attempts"];
