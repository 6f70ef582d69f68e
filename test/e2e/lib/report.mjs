// PASS/FAIL lines and the closing "N passed, M failed" line, as run.mjs prints them.

/** What an error is, in one line: class, message and the fields the checks look at. */
export function describe(error) {
  if (!(error instanceof Error)) return `non-error ${JSON.stringify(error)}`;
  const fields = ["status", "code", "origin", "location", "mayHaveBeenApplied", "timeout"]
    .filter((key) => error[key] !== undefined)
    .map((key) => `${key}=${JSON.stringify(error[key])}`);
  return `${error.name}: ${error.message}${fields.length ? ` {${fields.join(", ")}}` : ""}`;
}

export function createReport(prefix) {
  const tally = { passed: 0, failed: 0 };
  const line = (ok, what, detail = "") => {
    ok ? tally.passed++ : tally.failed++;
    console.log(`${ok ? "PASS" : "FAIL"} ${what}${detail ? ` — ${detail}` : ""}`);
  };
  /** Runs one check: it returns a detail for the PASS line, or throws what went wrong. */
  const check = async (what, body) => {
    try {
      line(true, what, (await body()) ?? "");
    } catch (error) {
      const text = error instanceof CheckFailure ? error.message : String(error?.stack ?? error).split("\n").slice(0, 8).join("\n    ");
      line(false, what, text);
    }
  };
  const summary = () => {
    console.log(`${prefix}: ${tally.passed} passed, ${tally.failed} failed`);
    return tally.failed === 0;
  };
  return { line, check, summary, tally };
}

/** A failed expectation: its message is the whole story, no stack. */
export class CheckFailure extends Error {}

export function expect(condition, message) {
  if (!condition) throw new CheckFailure(typeof message === "function" ? message() : message);
}
