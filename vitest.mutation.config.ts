import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config";

// The suite as Stryker runs it for each mutant (stryker.config.mjs). Stryker switches non-static
// mutants on at run time, so the test files of one run may share their imported modules: that
// halves the time per mutant on this project. The demo test is left out: it runs the demo in a
// child process, where no mutant is ever active.
export default mergeConfig(
  base,
  defineConfig({
    test: {
      isolate: false,
      exclude: ["test/examples/demo.test.ts", "**/node_modules/**"],
    },
  }),
);
