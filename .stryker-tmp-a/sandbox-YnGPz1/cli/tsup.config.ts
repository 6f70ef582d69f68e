// @ts-nocheck
import { defineConfig } from "tsup";

// The `public-hub` bin: ESM for Node ≥ 20 with its shebang. Every dependency stays external: the
// SDK is used through its published entries only, as any other consumer would.
export default defineConfig({
  entry: { index: "src/index.ts" },
  outDir: "dist",
  format: ["esm"],
  dts: false,
  splitting: true,
  sourcemap: true,
  clean: true,
  target: "node20",
  platform: "node",
  banner: { js: "#!/usr/bin/env node" },
  external: ["public-hub-sdk", "csv-parse", "cli-progress", "msw"],
});
