import type { StandardIssue, StandardSchemaV1 } from "../../src/core/types/standard-schema";

/** A Standard Schema that always fails with the given issues. */
export const failing = (issues: StandardIssue[]): StandardSchemaV1 => ({
  "~standard": { version: 1, vendor: "edge-test", validate: () => ({ issues }) },
});
