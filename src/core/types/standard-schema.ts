/**
 * The Standard Schema interface (https://standardschema.dev), copied as its authors recommend so
 * that no schema library is a dependency. zod 4 (classic and mini), valibot and arktype schemas
 * all implement it, so any of them can be passed as a call's `schema`.
 */

/**
 * A schema any validation library can provide; the SDK only calls its `validate`.
 * @example
 * ```ts
 * import * as z from "zod";
 * const schema: StandardSchemaV1<unknown, { name: string }> = z.object({ name: z.string() });
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly "~standard": {
    /** The Standard Schema version: 1. */
    readonly version: 1;
    /** The library that made the schema, e.g. `"zod"`. */
    readonly vendor: string;
    /** Validates a value, giving the typed value or the issues. */
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    /** Type-level input and output, for inference only. */
    readonly types?: {
      /** The accepted input type. */
      readonly input: Input;
      /** The validated output type. */
      readonly output: Output;
    } | undefined;
  };
}

/** What a Standard Schema's `validate` gives: the value, or the issues. */
export type StandardResult<Output> =
  | {
      /** The validated value. */
      readonly value: Output;
      /** Absent on success. */
      readonly issues?: undefined;
    }
  | {
      /** Why the value is not valid. */
      readonly issues: ReadonlyArray<StandardIssue>;
    };

/** One problem found by a Standard Schema. */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where: keys from the root, plain or wrapped. */
  readonly path?: ReadonlyArray<PropertyKey | {
    /** The key. */
    readonly key: PropertyKey;
  }> | undefined;
}
