import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// Every README block preceded by `<!-- checked: <file> -->` is that file's code below its marker,
// and tsc type-checks the file: the README cannot show code that does not compile.
const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const blocks = [...readme.matchAll(/<!-- checked: (\S+) -->\n```ts\n([\s\S]*?)```/g)].map(([, path, code]) => ({ path: path!, code: code! }));
const MARKER = "// ---- README.md ----\n";

describe("README code blocks", () => {
  it("there are checked blocks", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(5);
  });

  it.each(blocks)("$path is what the README shows", ({ path, code }) => {
    const file = readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
    expect(file).toContain(MARKER);
    expect(file.slice(file.indexOf(MARKER) + MARKER.length)).toBe(code);
  });
});
