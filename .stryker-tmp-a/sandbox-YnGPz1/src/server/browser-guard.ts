// @ts-nocheck
import { BrowserNotAllowedError } from "../core/errors";

export { BrowserNotAllowedError };

/** A `window` or `document` global means a browser (or a DOM emulation that wants to act like one). */
export function assertNotBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  if (dangerouslyAllowBrowser === true) return;
  if (typeof globalThis.window !== "undefined" || typeof globalThis.document !== "undefined") {
    throw new BrowserNotAllowedError({ hint: "(For tests in a DOM environment only, pass dangerouslyAllowBrowser: true.)" });
  }
}
