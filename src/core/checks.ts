import { HubValidationError, type ValidationIssue } from "./errors/hub-validation-error";

/**
 * Input checks of the browser entry. Every input there is a single string or number, so these are
 * plain predicates rather than zod: zod/mini's parser alone would take the browser bundle over its
 * 11 KB budget (measured: 12.2 KB with it, see docs/build-notes.md).
 */

/** A check gives the problem with a value, or nothing when the value is fine. */
export type Check = (value: unknown) => Omit<ValidationIssue, "path"> | undefined;

const problem = (code: string, message: string) => ({ code, message });

const string =
  (what: string, refine?: (value: string) => Omit<ValidationIssue, "path"> | undefined): Check =>
  (value) => {
    if (typeof value !== "string") return problem("invalid_type", `${what} must be a string`);
    if (value.trim() === "") return problem("too_small", `${what} must not be empty`);
    return refine?.(value);
  };

/** An integer greater than `min` (the only kind of number the checks here need). */
const integerAbove =
  (what: string, min: number): Check =>
  (value) => {
    // Number.isFinite is false for anything but a finite number: it does not coerce.
    if (!Number.isFinite(value)) return problem("invalid_type", `${what} must be a finite number`);
    if (!Number.isInteger(value)) return problem("invalid_type", `${what} must be an integer`);
    return (value as number) > min ? undefined : problem("too_small", `${what} must be greater than ${min}`);
  };

/** A path segment value: non-empty, and not `.`/`..`, which URL parsers collapse even encoded. */
const segment = (what: string) =>
  string(what, (value) => (value === "." || value === ".." ? problem("custom", `${what} must not be "." or ".."`) : undefined));

/** A check from a predicate: `message` when `test` fails. */
export const satisfies =
  (test: (value: unknown) => boolean, message: string, code = "invalid_format"): Check =>
  (value) =>
    test(value) ? undefined : problem(code, message);

export const isSlug = /* @__PURE__ */ segment("hub slug");
export const isWallet = /* @__PURE__ */ segment("wallet");
export const isNonEmpty = (what: string) => string(what);
export const isLimit = /* @__PURE__ */ integerAbove("limit", 0);

/** The problems of `value` (none or one), at `path`. */
export function issuesOf(check: Check, value: unknown, path: PropertyKey[] = []): ValidationIssue[] {
  const found = check(value);
  return found ? [{ path, ...found }] : [];
}

/** Throws a {@link HubValidationError} naming every issue, if there are any. */
export function assertNoIssues(what: string, issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new HubValidationError(what, issues);
}
