import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

// The suite as Stryker runs it for each mutant (stryker.config.mjs). The examples' tests are left
// out: they are smoke tests of whole apps (a child process, a DOM, React) that kill nothing the
// unit tests do not, at several times their cost per mutant. (`isolate: false` would halve the
// time per mutant, but breaks Stryker's per-test coverage and lets test files disturb each other.)
export default mergeConfig(
  base,
  defineConfig({
    test: {
      // test/packaging builds the package with tsup: it checks files, not code Stryker mutates in-process.
      // The built package (test/build) is checked once per run, not per mutant: its build and the API report take seconds.
      // The property tests (*.property.test.ts) cover nearly every mutant, so each mutant would run
      // them all (seconds each, with random inputs that need not meet the mutant); their defects'
      // example tests (test/properties/defects.test.ts) stay.
      // test/cli/startup.test.ts builds the CLI with tsup and records what its processes load: no mutant runs in it.
      exclude: ["test/examples/**", "test/packaging/**", "test/build/**", "test/cli/startup.test.ts", "test/properties/*.property.test.ts", "examples/**", "**/node_modules/**"],
      // The type tests (test/**/*.test-d.ts) check types, which no mutant of the runtime code changes.
      typecheck: { enabled: false },
      // Lets a test leave out a size that only matters at scale (see ref-registry.test.ts).
      env: { HUB_MUTATION_RUN: "1" },
    },
  }),
);
