import { HubError } from "./hub-error";

/**
 * The server answered with a redirect the SDK does not follow: any redirect of a signed write
 * (its signature covers the original path, and following would hand it to another server), a
 * read redirected to another origin (`x-api-key` stays with the API's origin), or too many hops.
 * Nothing was sent to `location`.
 *
 * @example
 * ```ts
 * if (error instanceof HubRedirectError) console.log(error.status, error.location); // 307 "https://elsewhere.test/…"
 * ```
 */
export class HubRedirectError extends HubError {
  /** The class name, stable across bundling (use it in logs and serialized errors). */
  override name = "HubRedirectError" as const;
  /** The redirect status (301, 302, 303, 307, 308…); 0 in a browser, which hides redirects. */
  declare readonly status: number;
  /** The `Location` the server named, resolved against the request URL; undefined when hidden or absent. */
  declare readonly location: string | undefined;

  constructor(init: { status: number; location: string | undefined; reason: string; mayHaveBeenApplied?: boolean | undefined }) {
    super({ message: `Not following the ${init.status || "opaque"} redirect${init.location ? ` to ${init.location}` : ""}: ${init.reason}.`, mayHaveBeenApplied: init.mayHaveBeenApplied });
    this.status = init.status;
    this.location = init.location;
  }
}
