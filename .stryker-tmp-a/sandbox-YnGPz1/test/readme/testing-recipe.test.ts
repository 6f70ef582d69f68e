// @ts-nocheck
// README.md's testing recipe, run as written: the block is read from the README at collection time
// and imported into this file, so its client is built at module level (before MSW's `listen()`), as
// the README shows it, and its `beforeAll`, `afterEach`, `afterAll` and `it` are this file's own.
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { testingRecipe } from "./readme-blocks.mjs";

const dir = fileURLToPath(new URL("../../.tmp/readme-recipe/", import.meta.url));
mkdirSync(dir, { recursive: true });
const file = `${dir}testing-recipe.ts`;
writeFileSync(file, testingRecipe());
await import(/* @vite-ignore */ file);
