// Mutation testing of the SDK's runtime code with StrykerJS (`npm run mutation`).
// The incremental file is committed, so that a run (locally or in CI) re-tests only the mutants
// whose code or covering tests changed since the last recorded run.
/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  packageManager: "npm",
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.ts" },
  coverageAnalysis: "perTest",
  // A static mutant (module-scope code) runs the whole suite, each one: 458 of them took three
  // quarters of a full run's time here. Their code is still under test (see docs/mutation.md).
  ignoreStatic: true,
  // Every entry's runtime code; type declarations only have nothing to mutate.
  mutate: ["src/**/*.ts", "!src/core/types/**", "!src/mock/types.ts"],
  ignorePatterns: ["dist", "coverage", "reports", "docs/api", "bench", "test/e2e", ".tmp"],
  thresholds: { high: 95, low: 90, break: 90 },
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  reporters: ["clear-text", "progress-append-only", "json"],
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  // Two cores: a worker waits on its test runner's I/O about a quarter of the time (72 % CPU each
  // with two), so a third keeps both cores busy.
  concurrency: 3,
  // A mutant that hangs (a turn never given back) is detected at 5 s: the suite runs in milliseconds per test.
  timeoutMS: 5000,
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
