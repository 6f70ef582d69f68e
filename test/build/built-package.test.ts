/**
 * The package as built, with the project's own tsup config into a directory of its own:
 * - every build of an entry exports the same names, values and types: ESM and CJS, and for
 *   `./server` the signing and browser builds (the browser build refuses by its types and at run
 *   time, never by a missing name);
 * - the API report of each entry (review/*.api.md, api-extractor) matches the built typings.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Options } from "tsup";
import ts from "typescript";
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
  "./server": ["server/index", "server/browser"],
  "./mock": ["mock/index"],
  "./query": ["query/index"],
  "./otel": ["otel/index"],
};

async function namesOf(file: string): Promise<{ esm: string[]; cjs: string[] }> {
  const esm = Object.keys(await import(pathToFileURL(join(outDir, `${file}.js`)).href)).sort();
  const cjs = Object.keys(require(join(outDir, `${file}.cjs`)) as object).sort();
  return { esm, cjs };
}

/** Every name the typings of each build export, types and values (TypeScript's own reading of them), by file. */
let typeNamesByFile = new Map<string, string[]>();
const typeNames = (file: string) => typeNamesByFile.get(file) ?? expect.unreachable(`${file} not read`);

function readTypings(files: string[]): Map<string, string[]> {
  const program = ts.createProgram(files.map((file) => join(outDir, file)), { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  return new Map(files.map((file) => [file, checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(join(outDir, file))!)!).map((symbol) => symbol.name).sort()]));
}

beforeAll(async () => {
  // The project's config: same entries, formats, chunking and typings; no source maps.
  await build({ ...(config as Options), outDir, sourcemap: false, silent: true });
  typeNamesByFile = readTypings(Object.values(entries).flatMap((files) => files.flatMap((file) => [`${file}.d.ts`, `${file}.d.cts`])));
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

  it.each(Object.entries(entries))("%s: its typings (ESM and CJS) too, types included", (_entry, files) => {
    const typings = files.flatMap((file) => [`${file}.d.ts`, `${file}.d.cts`]);
    const reference = typeNames(typings[0]!);
    expect(reference.length).toBeGreaterThan(0);
    for (const file of typings) expect({ file, names: typeNames(file) }).toEqual({ file, names: reference });
  });

  it("the server entry has every name of the root entry, and what only a server needs", async () => {
    const [root, server] = await Promise.all([namesOf("index"), namesOf("server/index")]);
    expect(server.esm).toEqual(expect.arrayContaining(root.esm));
    expect(server.esm).toEqual(expect.arrayContaining(["HubServerClient", "signRequest", "deriveSigningKey", "dryRunAwards", "awardSchema", "parseAward", "signingPayload", "CampaignStoppedError", "RefConflictError"]));
  });

  it("no name a user never needs is exported", () => {
    const never = ["HubServerClientBase", "HmacBackend", "PayloadSigner", "ServerRuntime", "BrowserOnlyRefusal"];
    for (const file of Object.values(entries).flat()) {
      expect({ file, found: typeNames(`${file}.d.ts`).filter((name) => never.includes(name)) }).toEqual({ file, found: [] });
    }
  });
});

describe("the API report", () => {
  it("review/*.api.md match the built API (after a deliberate change: npm run api:update, and commit the diff)", () => {
    const differences = apiReports({ distDir: outDir, update: false });
    expect(differences).toEqual([]);
  }, 120_000);
});
