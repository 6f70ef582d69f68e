// The browser bundle of `import { HubClient } from "public-hub-sdk"` (esbuild, minified, gzip
// level 9), named once: the bench's bundle row, `npm run e2e:runtimes` and `npm run e2e:react-query`
// read these. Why these figures: docs/build-notes.md ("Browser budget").

/** The goal decided with ky staying on 1.x: 10 KB. The bench reports against it (today it is missed, by the figure it prints). */
export const BROWSER_BUDGET_BYTES = 10 * 1024;

/**
 * What the checks enforce until the budget is met again: the measured size (13.4 KB on
 * 2026-11-26, after the lean core) with a little room, so that nothing grows unnoticed. Lower it as the gap closes.
 */
export const BROWSER_CEILING_BYTES = 14 * 1024;
