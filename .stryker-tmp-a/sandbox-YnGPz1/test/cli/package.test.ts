// @ts-nocheck
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(join(repo, path), "utf8"));

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (path.endsWith(".ts")) yield path;
  }
}

describe("two packages: the SDK and the CLI", () => {
  it("the SDK's runtime dependencies are ky and zod, and it has no bin", () => {
    const sdk = json("package.json");
    expect(Object.keys(sdk.dependencies).sort()).toEqual(["ky", "zod"]);
    expect(sdk.dependencies.zod).toMatch(/^\^4\./);
    expect(sdk.bin).toBeUndefined();
    expect(sdk.workspaces).toEqual(["cli"]);
  });

  it("the CLI is its own package with the public-hub bin, depending on the SDK", () => {
    const cli = json("cli/package.json");
    expect(cli.bin).toEqual({ "public-hub": "./dist/index.js" });
    expect(Object.keys(cli.bin)).toHaveLength(1); // so `npx public-hub-cli` runs it
    expect(cli.dependencies["public-hub-sdk"]).toBe(`^${json("package.json").version}`);
    expect(Object.keys(cli.dependencies).sort()).toEqual(["cli-progress", "csv-parse", "msw", "public-hub-sdk"]);
  });

  it("the CLI imports only the SDK's public entries (no path into src/)", () => {
    const allowed = /^(node:.+|\.{1,2}\/.+|public-hub-sdk|public-hub-sdk\/server|public-hub-sdk\/mock|msw|csv-parse|cli-progress)$/;
    const imports: string[] = [];
    for (const path of sources(join(repo, "cli/src"))) {
      for (const match of readFileSync(path, "utf8").matchAll(/(?:from|import\()\s*"([^"]+)"/g)) {
        const specifier = match[1]!;
        imports.push(specifier);
        expect([path, specifier, allowed.test(specifier)]).toEqual([path, specifier, true]);
        if (specifier.startsWith(".")) expect(join(path, "..", specifier).startsWith(join(repo, "cli/src"))).toBe(true);
      }
    }
    expect(imports).toContain("public-hub-sdk/server");
  });
});
