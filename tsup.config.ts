import { defineConfig } from "tsup";

const library = defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "src/mock/index.ts",
    "query/index": "src/query/index.ts",
    "otel/index": "src/otel/index.ts",
    // `#traced` in package.json "imports": the channel's work where Node's diagnostics_channel exists, nothing in browsers.
    "telemetry/traced": "src/core/telemetry/traced.ts",
    "telemetry/traced-none": "src/core/telemetry/traced-none.ts",
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
  external: ["ky", "msw", "@tanstack/query-core", "@opentelemetry/api", "#traced"],
  noExternal: ["zod"],
});

export default library;
