// @ts-nocheck
// README.md's "one `schemas` module" recipe (the mock speaking a hub that is not its default), run
// as written: read from the README at collection time and imported here, as
// test/readme/testing-recipe.test.ts runs the first recipe (one file each: each starts its own MSW server).
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tsBlocks } from "../readme/readme-blocks.mjs";

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
const recipe = tsBlocks(readme).find((block) => block.section.startsWith("Testing your app") && block.code.includes("responses: {"));
if (!recipe) throw new Error('README.md: no "one schemas module" recipe (a block with `responses: {`) in "Testing your app…"');
const dir = fileURLToPath(new URL("../../.tmp/readme-recipe/", import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}schemas-recipe.ts`;
writeFileSync(file, recipe.code);
await import(/* @vite-ignore */ file);
