// @ts-nocheck
// After `typedoc`: every exported symbol of the three entry points, and every public method of an
// exported class, must carry an @example. Reads typedoc's JSON; exits 1 naming what lacks one.
import { readFileSync } from "node:fs";

const KIND = { Module: 2, Enum: 8, Variable: 32, Function: 64, Class: 128, Interface: 256, Method: 2048, TypeAlias: 2097152 };
const project = JSON.parse(readFileSync(new URL("./api/api.json", import.meta.url), "utf8"));

const hasExample = (reflection) =>
  [reflection.comment, ...(reflection.signatures ?? []).map((s) => s.comment)].some((comment) =>
    comment?.blockTags?.some((tag) => tag.tag === "@example"),
  );

const missing = [];
let checked = 0;
for (const module of project.children ?? []) {
  for (const symbol of module.children ?? []) {
    if (!Object.values(KIND).includes(symbol.kind) || symbol.kind === KIND.Module) continue;
    checked++;
    if (!hasExample(symbol)) missing.push(`${module.name}: ${symbol.name}`);
    if (symbol.kind !== KIND.Class) continue;
    for (const member of symbol.children ?? []) {
      if (member.kind !== KIND.Method || member.inheritedFrom || member.flags?.isPrivate) continue;
      checked++;
      if (!hasExample(member)) missing.push(`${module.name}: ${symbol.name}.${member.name}`);
    }
  }
}
if (missing.length > 0) {
  console.error(`Missing @example (${missing.length} of ${checked}):\n  ${missing.join("\n  ")}`);
  process.exit(1);
}
console.log(`docs: all ${checked} public symbols and methods have an @example`);
