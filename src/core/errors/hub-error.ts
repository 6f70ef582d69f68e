/**
 * What every {@link HubError} is made of; each subclass's init adds its own fields.
 * @example
 * ```ts
 * const error = new HubError({ message: "boom", cause: original });
 * ```
 */
export interface HubErrorInit {
  /** What went wrong, in words. */
  message: string;
  /** The error that led to this one, when there is one. */
  cause?: unknown;
  /** Whether a write may have been applied (see {@link HubError.mayHaveBeenApplied}). @default false */
  mayHaveBeenApplied?: boolean | undefined;
}

/**
 * Base class of every error the SDK throws, so one `instanceof HubError` catches them all.
 * Every class takes one init object, and `toJSON()` carries every field it declares.
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

  constructor(init: HubErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.mayHaveBeenApplied = init.mayHaveBeenApplied ?? false;
  }

  /**
   * What `JSON.stringify` shows: the name, the message (which `Error` hides from JSON) and every
   * field the class declares, except an answer's `body` and `headers` (size; headers may carry
   * cookies). Never key material, never the request.
   * @example
   * ```ts
   * logger.error(JSON.stringify(error)); // {"name":"NotFoundError","message":"404 …","status":404,…}
   * ```
   */
  toJSON(): Record<string, unknown> {
    const json: Record<string, unknown> = { name: this.name, message: this.message };
    // Every field is an own property set by a constructor, so a class's new field is carried too.
    for (const [field, value] of Object.entries(this)) if (value !== undefined && !NOT_SERIALIZED.has(field)) json[field] = value;
    return json;
  }
}

// An answer's body may be large (and hold wallets, which identify people), and its headers may
// carry cookies; a schema error's `data` is that body decoded. `bodyExcerpt` stays: 200 characters.
const NOT_SERIALIZED = new Set(["body", "headers", "data"]);
