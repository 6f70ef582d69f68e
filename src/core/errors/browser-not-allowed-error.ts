import { HubError } from "./hub-error";

/**
 * The server entry was used in a browser. Signing needs the API secret, and anything shipped to a
 * browser is public: award points from your backend instead.
 *
 * @example
 * ```ts
 * if (error instanceof BrowserNotAllowedError) console.error(error.message);
 * ```
 */
export class BrowserNotAllowedError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "BrowserNotAllowedError" as const;

  /**
   * @param init `hint`: what the build that refused can offer: the server builds name their
   * `dangerouslyAllowBrowser` option; the browser build, which has no signing code, offers no way
   * around. Given by each build, so that a browser bundle does not even hold the server builds' hint.
   */
  constructor(init: { hint?: string | undefined } = {}) {
    super({
      message:
        "public-hub-sdk/server does not run in a browser: signing awards needs the API secret, and the secret " +
        "must stay on your server. Award points from your backend and call it from the page." +
        (init.hint ? ` ${init.hint}` : ""),
    });
  }
}
