// What a user who installed the package can reach: every page README.md points to is in the tarball
// (`npm pack --dry-run`, the list npm itself would publish), and package.json says where the
// repository, the home page and the issues are.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(join(repo, path), "utf8"));

/** The paths `npm pack` would put in the tarball of the package in `dir` (scripts not run). */
const packed = (dir: string): string[] =>
  (JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: dir, encoding: "utf8" })) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);

/** Relative targets of a Markdown text: its links, and the pages it names in code spans (`docs/x.md`, `examples/…`, `cli/README.md`). */
function pagesNamed(markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^(#|[a-z][\w+.-]*:)/i.test(target));
  const named = [...markdown.matchAll(/`((?:docs\/[\w.-]+\.md|cli\/README\.md|examples\/[\w./-]*))`/g)].map((m) => m[1]!);
  return [...new Set([...links, ...named].map((target) => target.replace(/#.*$/, "").replace(/^\.\//, "")))];
}

const reachable = (target: string, files: string[]) => files.some((file) => file === target || file.startsWith(target.endsWith("/") ? target : `${target}/`));

describe("the SDK's tarball", () => {
  const files = packed(repo);

  it("holds every page README.md links to or names", () => {
    const pages = pagesNamed(readFileSync(join(repo, "README.md"), "utf8"));
    expect(pages).toEqual(expect.arrayContaining(["docs/observability.md", "docs/spec-decisions.md", "cli/README.md", "examples/demo.ts", "review/public-hub-sdk.api.md"]));
    expect(pages.filter((page) => !reachable(page, files))).toEqual([]);
  });

  it("holds the pages' own images and no tool scripts", () => {
    const observability = pagesNamed(readFileSync(join(repo, "docs/observability.md"), "utf8").replace(/!\[[^\]]*\]\(([^)]+)\)/g, "[]($1)"));
    expect(observability.map((image) => `docs/${image}`).filter((page) => !reachable(page, files))).toEqual([]);
    expect(files).not.toContain("docs/check-examples.mjs");
  });

  it("leaves out what an example's own `npm install` writes", () => {
    // A copy of the packed folders, so that nothing is written into the repository's examples/.
    const copy = join(repo, ".tmp/packed-docs");
    rmSync(copy, { recursive: true, force: true });
    mkdirSync(copy, { recursive: true });
    for (const path of ["package.json", "README.md", "docs", "examples"]) cpSync(join(repo, path), join(copy, path), { recursive: true, filter: (source) => !source.includes("node_modules") });
    mkdirSync(join(copy, "examples/react-query/node_modules/react"), { recursive: true });
    writeFileSync(join(copy, "examples/react-query/node_modules/react/index.js"), "");
    writeFileSync(join(copy, "examples/react-query/package-lock.json"), "{}");
    const copied = packed(copy);
    expect(copied).toContain("examples/react-query/package.json");
    expect(copied.filter((path) => /node_modules|package-lock/.test(path))).toEqual([]);
  });
});

describe("where the project lives", () => {
  it("both packages name the repository, its home page and its issues, with no placeholder", () => {
    for (const path of ["package.json", "cli/package.json"]) {
      const { repository, homepage, bugs } = json(path);
      const urls = [repository.url, homepage, bugs.url];
      for (const url of urls) expect([path, url]).toEqual([path, expect.stringMatching(/^(git\+)?https:\/\/github\.com\/public-hub\/public-hub-sdk(\.git|#readme|\/issues|\/tree\/main\/cli#readme)$/)]);
    }
    expect(json("cli/package.json").repository.directory).toBe("cli");
  });

  it("the pattern finds links and named pages, and only relative ones", () => {
    const text = "See [o](docs/observability.md#spans), [web](https://x.dev/a.md), [top](#usage), `examples/demo.ts` and `cli/README.md`, not `src/x.ts`.";
    expect(pagesNamed(text)).toEqual(["docs/observability.md", "examples/demo.ts", "cli/README.md"]);
  });
});
