// docs/how-a-call-flows.md names the files an award passes through: that list is a measurement
// (scripts/files-an-award-passes.ts, V8's coverage of one award retried after a 503 and re-sent for
// the clock), and this test measures it again and compares.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";

it("the files an award passes through are the ones docs/how-a-call-flows.md lists, as measured", () => {
  const dir = mkdtempSync(join(tmpdir(), "award-files-"));
  try {
    const out = execFileSync(process.execPath, ["--import", "tsx", "scripts/files-an-award-passes.ts", dir], { env: { ...process.env, NODE_V8_COVERAGE: dir }, encoding: "utf8" });
    const measured = JSON.parse(out.trim().split("\n").at(-1)!) as string[];
    const docs = readFileSync("docs/how-a-call-flows.md", "utf8");
    const section = docs.slice(docs.indexOf("## An award"), docs.indexOf("## Who watches a call"));
    const listed = [...new Set(section.match(/src\/[\w/-]+\.ts/g))].sort();
    expect(listed).toEqual(measured);
    expect(section).toContain(`${["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"][measured.length]} files`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
