// @ts-nocheck
// Every example runs from a fresh clone with the commands its README gives (issue 23, item 10): what
// an `npm install` in the example's folder would ask the registry for, and what its scripts need.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repo = fileURLToPath(new URL("../..", import.meta.url));
const json = (path: string) => JSON.parse(readFileSync(join(repo, path), "utf8"));
/** This repository's packages, which are not on the registry until published. */
const OURS: Record<string, string> = { "public-hub-sdk": ".", "public-hub-cli": "cli" };

describe("examples/react-query from a fresh clone", () => {
  const dir = "examples/react-query";
  const pkg = json(`${dir}/package.json`);
  const deps: Record<string, string> = { ...pkg.dependencies, ...pkg.devDependencies };

  it("npm install there takes the SDK and the CLI from the repository, not the registry", () => {
    for (const [name, path] of Object.entries(OURS)) {
      expect([name, deps[name]]).toEqual([name, expect.stringMatching(/^file:/)]);
      const target = resolve(repo, dir, deps[name]!.slice("file:".length));
      expect([name, target]).toEqual([name, resolve(repo, path)]);
      expect(json(join(target.slice(repo.length), "package.json")).name).toBe(name);
    }
  });

  it("npm run mock runs a bin of its own dependencies", () => {
    const bin = pkg.scripts.mock.split(" ")[0];
    const providers = Object.keys(deps).filter((name) => name in OURS && Object.keys(json(`${OURS[name]}/package.json`).bin ?? {}).includes(bin));
    expect(providers).toEqual(["public-hub-cli"]);
  });

  it("npm run dev resolves its Vite plugins: every package vite.config.ts imports is a dependency", () => {
    const config = readFileSync(join(repo, dir, "vite.config.ts"), "utf8");
    const imported = [...config.matchAll(/from\s+"([^"./][^"]*)"/g)].map((match) => match[1]!);
    expect(imported).toContain("@vitejs/plugin-react");
    for (const name of imported) expect([name, name in deps]).toEqual([name, true]);
  });

  it("its README gives the commands, each a script of the example", () => {
    const readme = readFileSync(join(repo, dir, "README.md"), "utf8");
    for (const script of ["mock", "dev"]) {
      expect(readme).toContain(`npm run ${script}`);
      expect(pkg.scripts[script]).toBeDefined();
    }
    expect(readme).toMatch(/npm install && npm run build/);
  });
});
