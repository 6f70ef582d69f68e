// The API report of each entry (review/<entry>.api.md), as the Azure SDK keeps one: what users of
// the package can import, with every signature. `npm test` fails when the built API and the
// committed reports differ (test/build/built-package.test.ts); `npm run api:update` builds and
// rewrites them, and the diff of review/ is the API change to review in the commit.
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Extractor, ExtractorConfig, ExtractorLogLevel } from "@microsoft/api-extractor";

const root = fileURLToPath(new URL("..", import.meta.url));

/**
 * One report per entry of package.json's exports. `./server`'s report is of its signing build (the
 * browser build, which refuses, has the same names: the parity test).
 */
export const API_ENTRIES = [
  ["public-hub-sdk", "index.d.ts"],
  ["public-hub-sdk-server", "server/index.d.ts"],
  ["public-hub-sdk-mock", "mock/index.d.ts"],
  ["public-hub-sdk-query", "query/index.d.ts"],
  ["public-hub-sdk-otel", "otel/index.d.ts"],
];

/**
 * Runs api-extractor on the typings built into `distDir`. With `update`, writes the reports to
 * review/; without, only compares. Returns the entries whose report differs, with the messages.
 * @param {{ distDir: string; update: boolean }} options
 * @returns {Array<{ name: string; messages: string[] }>}
 */
export function apiReports({ distDir, update }) {
  /** @type {Array<{ name: string; messages: string[] }>} */
  const differences = [];
  for (const [name, typings] of API_ENTRIES) {
    /** @type {string[]} */
    const messages = [];
    const config = ExtractorConfig.prepare({
      configObject: {
        projectFolder: root,
        mainEntryPointFilePath: `${distDir}/${typings}`,
        compiler: {
          overrideTsconfig: {
            compilerOptions: { target: "ES2022", module: "ESNext", moduleResolution: "Bundler", lib: ["ES2022", "DOM", "DOM.Iterable"], types: ["node"], strict: true, skipLibCheck: true },
            files: [`${distDir}/${typings}`],
          },
        },
        // A type an export uses but users cannot import is written out too, so that its members
        // are guarded like the rest.
        apiReport: { enabled: true, includeForgottenExports: true, reportFileName: `${name}.api.md`, reportFolder: "<projectFolder>/review/", reportTempFolder: "<projectFolder>/node_modules/.cache/api-extractor/" },
        docModel: { enabled: false },
        dtsRollup: { enabled: false },
        tsdocMetadata: { enabled: false },
        messages: {
          // typedoc (npm run docs) checks documentation and links; the SDK marks no release stages
          // (@public, @beta): every export is public. A type an entry uses but does not export (the
          // query entry's client types, imported from the root entry) is written out unexported
          // (includeForgottenExports), without a note naming its hashed chunk file.
          extractorMessageReporting: {
            default: { logLevel: ExtractorLogLevel.Warning },
            "ae-missing-release-tag": { logLevel: ExtractorLogLevel.None },
            "ae-undocumented": { logLevel: ExtractorLogLevel.None },
            "ae-unresolved-link": { logLevel: ExtractorLogLevel.None },
            "ae-forgotten-export": { logLevel: ExtractorLogLevel.None, addToApiReportFile: false },
          },
          // TSDoc's strict syntax is not what typedoc reads (`@default 10_000`, `{@link}` forms).
          tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
        },
      },
      configObjectFullPath: undefined,
      packageJsonFullPath: `${root}package.json`,
    });
    const result = Extractor.invoke(config, {
      localBuild: update,
      messageCallback: (message) => {
        if (message.logLevel !== ExtractorLogLevel.None) messages.push(message.text);
        message.handled = true;
      },
    });
    // Writing (update), a new or changed report is the point; checking, it is the failure.
    if (!result.succeeded || (!update && (result.warningCount > 0 || result.apiReportChanged))) differences.push({ name: `${name} (${typings})`, messages });
  }
  return differences;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  execFileSync("npx", ["tsup", "--silent"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  mkdirSync(`${root}review`, { recursive: true });
  const differences = apiReports({ distDir: `${root}dist`, update: process.argv.includes("--update") });
  for (const { name, messages } of differences) console.error(`${name}:\n  ${messages.join("\n  ")}`);
  if (differences.length > 0) process.exit(1);
  console.log("api reports written to review/ (review and commit the diff)");
}
