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
      // The built package (test/build) is checked once per run, not per mutant: its build and the API report take seconds.
      exclude: ["test/examples/**", "examples/**", "test/build/**", "**/node_modules/**"],
      // Lets a test leave out a size that only matters at scale (see ref-registry.test.ts).
      env: { HUB_MUTATION_RUN: "1" },
    },
  }),
);
