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
}
