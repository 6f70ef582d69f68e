import { readFileSync, writeFileSync } from "node:fs";
import { basename, isAbsolute } from "node:path";
import { defineConfig, type Options } from "tsup";

type Plugin = NonNullable<Options["plugins"]>[number];

/**
 * Source maps that stand alone. esbuild embeds every source's text (`sourcesContent`), but tsup's
 * CommonJS splitting (sucrase, then a merged map) adds the `.cjs` file itself as a source, by its
 * absolute path on the build machine and without its text (and names it so in `file`). That entry
 * is pointed at the shipped file beside the map, with its text.
 */
const standaloneSourceMaps: Plugin = {
  name: "standalone-source-maps",
  buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (!name.endsWith(".map")) continue;
      const map = JSON.parse(readFileSync(name, "utf8")) as { file?: string; sources: string[]; sourcesContent?: Array<string | null> };
      if (map.file && isAbsolute(map.file)) map.file = basename(map.file);
      const contents = map.sources.map((_, i) => map.sourcesContent?.[i] ?? null);
      map.sources.forEach((source, i) => {
        if (contents[i] !== null || !isAbsolute(source)) return;
        contents[i] = readFileSync(source, "utf8");
        map.sources[i] = basename(source);
      });
      writeFileSync(name, JSON.stringify({ ...map, sourcesContent: contents }));
    }
  },
};

const library = defineConfig({
  entry: {
    index: "src/index.ts",
    "mock/index": "src/mock/index.ts",
    "query/index": "src/query/index.ts",
    "otel/index": "src/otel/index.ts",
    "server/index": "src/server/index.ts",
    "server/browser": "src/server/browser.ts",
  },
  format: ["esm", "cjs"],
  // `@internal` declarations stay out of the published types: HubClient's constructor overload
  // that only the server entry calls (its write policy).
  dts: { compilerOptions: { stripInternal: true } },
  // Shared code goes to chunks, so every entry uses the same error classes (instanceof works).
  splitting: true,
  sourcemap: true,
  plugins: [standaloneSourceMaps],
  clean: true,
  target: "es2022",
  platform: "neutral",
  // zod is imported from the dependency, as its users import it: an app's bundle holds one zod, and
  // `awardSchema` is made by the same zod as the app's schemas.
  external: ["ky", "zod", "msw", "@tanstack/query-core", "@opentelemetry/api"],
});

export default library;
