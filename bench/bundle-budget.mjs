// The budget of `import { HubClient } from "public-hub-sdk"` in a browser bundle (esbuild, minified,
// gzip level 9), named once: the bench's bundle row, `npm run e2e:runtimes` and
// `npm run e2e:react-query` check it. Why this figure: docs/build-notes.md ("Browser budget").
export const BROWSER_BUDGET_BYTES = 14 * 1024;
