import { defineConfig } from "tsup";

const library = defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "src/mock/index.ts",
    "query/index": "src/query/index.ts",
    "otel/index": "src/otel/index.ts",
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
  external: ["ky", "msw", "@tanstack/query-core", "@opentelemetry/api"],
  noExternal: ["zod"],
});

export default library;
