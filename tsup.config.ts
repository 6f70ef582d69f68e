import { defineConfig } from "tsup";

const library = defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "src/mock/index.ts",
    "query/index": "src/query/index.ts",
    "server/node": "src/server/node.ts",
    "server/edge": "src/server/edge.ts",
    "server/browser": "src/server/browser.ts",
  },
  format: ["esm", "cjs"],
  dts: true,
  // Shared code goes to chunks, so every entry uses the same error classes (instanceof works).
  splitting: true,
  sourcemap: true,
  clean: true,
  target: "es2022",
  platform: "neutral",
  external: ["ky", "msw", "@tanstack/query-core"],
  noExternal: ["zod"],
});

// The `public-hub` bin: its own build, so its dependencies (csv-parse, cli-progress) and code never
// enter the library's chunks or any entry's import graph. ESM only, with the shebang.
const cli = defineConfig({
  entry: { index: "src/cli/index.ts" },
  outDir: "dist/cli",
  format: ["esm"],
  dts: false,
  splitting: true,
  sourcemap: true,
  clean: false,
  target: "node20",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
  external: ["ky", "csv-parse", "cli-progress"],
});

export default [library, cli];
