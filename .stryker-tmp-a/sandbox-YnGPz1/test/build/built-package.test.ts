/**
 * The package as built, with the project's own tsup config into a directory of its own:
 * - every build of an entry exports the same names: ESM and CJS, and for `./server` the Node, edge
 *   and browser builds (the browser build refuses by its types and at run time, never by a
 *   missing name);
 * - the API report of each entry (review/*.api.md, api-extractor) matches the built typings.
 */
// @ts-nocheck

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Options } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import config from "../../tsup.config";
import { apiReports } from "../../scripts/api-report.mjs";

// Inside the repository, so that the builds resolve ky and msw as the published package would,
// and not below node_modules, where api-extractor would take the typings for another package's.
const cache = fileURLToPath(new URL("../../.built/", import.meta.url));
mkdirSync(cache, { recursive: true });
const outDir = mkdtempSync(join(cache, "export-parity-"));
const require = createRequire(import.meta.url);

// Each entry and its builds, as package.json's exports map them.
const entries: Record<string, string[]> = {
  ".": ["index"],
  "./server": ["server/node", "server/edge", "server/browser"],
  "./mock": ["mock/index"],
  "./query": ["query/index"],
  "./otel": ["otel/index"],
};

async function namesOf(file: string): Promise<{ esm: string[]; cjs: string[] }> {
  const esm = Object.keys(await import(pathToFileURL(join(outDir, `${file}.js`)).href)).sort();
  const cjs = Object.keys(require(join(outDir, `${file}.cjs`)) as object).sort();
  return { esm, cjs };
}

beforeAll(async () => {
  // The project's config: same entries, formats, chunking and typings; no source maps.
  await build({ ...(config as Options), outDir, sourcemap: false, silent: true });
}, 120_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe("every build of an entry exports the same names", () => {
  it.each(Object.entries(entries))("%s", async (_entry, files) => {
    const builds = await Promise.all(files.map(namesOf));
    const reference = builds[0]!.esm;
    expect(reference.length).toBeGreaterThan(0);
    for (const [i, names] of builds.entries()) {
      expect({ file: `${files[i]}.js`, names: names.esm }).toEqual({ file: `${files[i]}.js`, names: reference });
      expect({ file: `${files[i]}.cjs`, names: names.cjs }).toEqual({ file: `${files[i]}.cjs`, names: reference });
    }
  });

  it("the server entry has every name of the root entry, and what only a server needs", async () => {
    const [root, server] = await Promise.all([namesOf("index"), namesOf("server/node")]);
    expect(server.esm).toEqual(expect.arrayContaining(root.esm));
    expect(server.esm).toEqual(expect.arrayContaining(["HubServerClient", "signRequest", "deriveSigningKey", "dryRunAwards", "awardSchema", "parseAward", "signingPayload", "CampaignStoppedError", "RefConflictError"]));
  });

  it("no class a user cannot use is exported", async () => {
    for (const file of Object.values(entries).flat()) {
      const { esm } = await namesOf(file);
      expect(esm).not.toContain("HubServerClientBase");
    }
  });
});

describe("the API report", () => {
  it("review/*.api.md match the built API (after a deliberate change: npm run api:update, and commit the diff)", () => {
    const differences = apiReports({ distDir: outDir, update: false });
    expect(differences).toEqual([]);
  }, 120_000);
});
