import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // examples/react-query has its own node_modules once its README's `npm install` ran there: its
    // sources, rendered by the tests, must still get the root's React (one React, or hooks fail).
    dedupe: ["react", "react-dom", "@tanstack/react-query"],
    // Tests and examples import the package by name, as users do; here it resolves to the source.
    alias: [
      { find: /^public-hub-sdk\/server$/, replacement: src("server/index.ts") },
      { find: /^public-hub-sdk\/mock$/, replacement: src("mock/index.ts") },
      { find: /^public-hub-sdk\/query$/, replacement: src("query/index.ts") },
      { find: /^public-hub-sdk\/otel$/, replacement: src("otel/index.ts") },
      { find: /^public-hub-sdk$/, replacement: src("index.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts", "examples/**/*.test.ts"],
    restoreMocks: true,
    // Type tests (*.test-d.ts: expectTypeOf, @ts-expect-error) are type-checked by tsc, never run:
    // a wrong type fails them, where at run time expectTypeOf passes whatever the type.
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
