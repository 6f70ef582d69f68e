// After `typedoc`: checks the @example blocks that the public API keeps. Not every symbol needs one
// (issue 34: an example stays where it teaches what the signature does not), but each one kept must
// hold something: a fenced ```ts block, whole, or an inline value. Reads typedoc's JSON; exits 1
// naming the empty or malformed ones.
import { readFileSync } from "node:fs";

const project = JSON.parse(readFileSync(new URL("./api/api.json", import.meta.url), "utf8"));

const problems = [];
let examples = 0;
const commentsOf = (reflection) => [
  reflection.comment,
  ...(reflection.signatures ?? []).map((s) => s.comment),
  reflection.getSignature?.comment,
  reflection.setSignature?.comment,
];
const visit = (reflection, path) => {
  for (const comment of commentsOf(reflection)) {
    for (const tag of comment?.blockTags ?? []) {
      if (tag.tag !== "@example") continue;
      examples++;
      const text = (tag.content ?? []).map((part) => part.text).join("").trim();
      const fences = text.match(/^```.*$/gm) ?? [];
      if (text === "") problems.push(`${path}: empty @example`);
      else if (fences.length % 2 !== 0) problems.push(`${path}: unclosed code fence in @example`);
      else if (fences.some((fence, i) => i % 2 === 0 && fence !== "```ts")) problems.push(`${path}: @example fence is not \`\`\`ts`);
    }
  }
  for (const child of reflection.children ?? []) visit(child, path ? `${path}.${child.name}` : child.name);
};
for (const module of project.children ?? []) visit(module, `${module.name}:`);
if (problems.length > 0) {
  console.error(`@example problems (${problems.length} of ${examples}):\n  ${problems.join("\n  ")}`);
  process.exit(1);
}
console.log(`docs: ${examples} @example blocks, each a whole \`\`\`ts block or an inline value`);
