// @ts-nocheck
// The README is code: every ```ts block of the READMEs is extracted here, type-checked by
// `npm test` (run as a script: `node test/readme/readme-blocks.mjs`), and the testing recipe is
// run as written by test/readme/testing-recipe.test.ts.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = new URL("../../", import.meta.url);
/** The READMEs whose TypeScript blocks are checked (cli/README.md has none today; it is checked all the same). */
export const READMES = ["README.md", "cli/README.md"];
/** Where the blocks are written: inside the repository (so the package and its dependencies resolve), ignored by git. */
export const OUT_DIR = fileURLToPath(new URL(".tmp/readme/", root));

/**
 * The ```ts blocks of a markdown text, each with the line it starts on and the `##` section it is in.
 * @param {string} markdown
 * @returns {{ code: string, line: number, section: string }[]}
 */
export function tsBlocks(markdown) {
  /** @type {{ code: string, line: number, section: string }[]} */
  const blocks = [];
  let section = "";
  /** @type {{ code: string, line: number, section: string } | undefined} */
  let open;
  let indent = "";
  markdown.split("\n").forEach((text, index) => {
    if (open) {
      if (text.trimStart().startsWith("```")) {
        blocks.push(open);
        open = undefined;
      } else open.code += `${text.startsWith(indent) ? text.slice(indent.length) : text}\n`;
    } else if (text.startsWith("## ")) section = text.slice(3).trim();
    else {
      // A fence may be indented (a block inside a list item): its lines lose that indent.
      const fence = /^(\s*)```(ts|typescript)\s*$/.exec(text);
      if (fence) {
        indent = fence[1] ?? "";
        open = { code: "", line: index + 2, section };
      }
    }
  });
  return blocks;
}

/**
 * The first block of `README.md`'s testing section: the recipe a user copies into a test file.
 * @returns {string}
 */
export function testingRecipe() {
  const blocks = tsBlocks(readFileSync(new URL("README.md", root), "utf8")).filter((block) => block.section.startsWith("Testing your app"));
  if (blocks.length === 0) throw new Error(`README.md: no TypeScript block in "Testing your app…"`);
  return /** @type {{ code: string }} */ (blocks[0]).code;
}

// Names a README fragment uses for what the reader already has (their client, a wallet, their own
// helpers). Ambient, so a block that declares one of them itself shadows it; anything else a block
// uses must be imported by the block, as a reader's file would.
const GLOBALS = `import type { HubClient, ValidationIssue } from "public-hub-sdk";
import type { AwardInput, HubServerClient } from "public-hub-sdk/server";
declare global {
  const baseUrl: string;
  const clientId: string;
  const secret: string;
  const hub: HubClient;
  const server: HubServerClient;
  const wallet: string;
  const ref: string;
  const award: AwardInput;
  const rows: unknown[];
  const controller: AbortController;
  const timestamp: string;
  const path: string;
  const body: string;
  function showFormError(issues: readonly ValidationIssue[]): void;
  function retryLater(seconds: number | undefined): void;
  function readRows(file: string): AsyncIterable<AwardInput>;
  function pino(): { debug(message: string): void; info(message: string): void; warn(message: string): void; error(message: string): void };
}
export {};
`;

/** Writes every block as a module of its own under OUT_DIR and type-checks them with the repository's settings. */
function typecheck() {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const files = [];
  for (const readme of READMES) {
    for (const block of tsBlocks(readFileSync(new URL(readme, root), "utf8"))) {
      // A block that names its file on its first line (`// hub-schemas.ts: …`) is that module, which
      // other blocks import as a reader's files would (`./hub-schemas`).
      const named = /^\/\/ ([\w-]+\.ts):/.exec(block.code)?.[1];
      const name = named ?? `${readme.replace(/[/.]/g, "_")}_line_${block.line}.ts`;
      // `export {}`: every block is a module (top-level await, no names leaking between blocks).
      writeFileSync(`${OUT_DIR}${name}`, `// ${readme}:${block.line} (${block.section})\n${block.code}export {};\n`);
      files.push(name);
    }
  }
  writeFileSync(`${OUT_DIR}readme-globals.d.ts`, GLOBALS);
  const tsconfig = { extends: "../../tsconfig.json", compilerOptions: { noEmit: true, noUnusedLocals: false }, include: ["*.ts"] };
  writeFileSync(`${OUT_DIR}tsconfig.json`, JSON.stringify(tsconfig, null, 2));
  try {
    execFileSync(process.execPath, [fileURLToPath(new URL("node_modules/typescript/bin/tsc", root)), "-p", `${OUT_DIR}tsconfig.json`], { stdio: "inherit" });
  } catch {
    console.error(`README blocks: type errors above (files in ${OUT_DIR}, named after the README and the block's first line)`);
    process.exit(1);
  }
  console.log(`README blocks: ${files.length} TypeScript blocks of ${READMES.join(", ")} type-check`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) typecheck();
