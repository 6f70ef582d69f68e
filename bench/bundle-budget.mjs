// The browser bundle of `import { HubClient } from "public-hub-sdk"` (esbuild, minified, gzip
// level 9), named once: the bench's bundle row, `npm run e2e:runtimes` and `npm run e2e:react-query`
// read these. Why these figures: docs/build-notes.md ("Browser budget").

/** The budget the owner decided: 12 KB. A goal the bench reports against (today it is missed, by the figure it prints). */
export const BROWSER_BUDGET_BYTES = 12 * 1024;

/**
 * What the checks enforce until the budget is met again: the measured size (13.6 KB on
 * 2026-11-26) with a little room, so that nothing grows unnoticed. Lower it as the gap closes.
 */
export const BROWSER_CEILING_BYTES = 14 * 1024;
