// @ts-nocheck
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

/** The browser entry's `HubClient` as a page's bundler ships it (as `bundleSizes` in test/e2e/run.mjs measures it, from the source). */
async function browserBundle(): Promise<string> {
  const result = await build({
    stdin: { contents: 'import { HubClient } from "./src/index.ts"; globalThis.HubClient = HubClient;', resolveDir: fileURLToPath(new URL("../..", import.meta.url)), loader: "ts" },
    bundle: true,
    minify: true,
    write: false,
    format: "esm",
    platform: "browser",
    logLevel: "error",
  });
  return result.outputFiles[0]!.text;
}

describe("the browser entry's bundle", () => {
  it("holds no write-only table: the never-sent failure codes live in the server entry", async () => {
    const code = await browserBundle();
    expect(code).toContain("HubValidationError"); // the bundle is the client's
    expect(code).not.toMatch(/ECONNREFUSED|EAI_AGAIN|CERT_HAS_EXPIRED/);
  });

  it("holds no write-only message or log line: the may-have-been-applied note and outcome-unknown live in the server entry", async () => {
    const code = await browserBundle();
    expect(code).toContain("HubValidationError");
    expect(code).not.toMatch(/same ref is safe|outcome-unknown/);
  });

  it("holds no signing: the write policy (signature headers, the clock re-send) is the server entry's", async () => {
    const code = await browserBundle();
    expect(code).toContain("HubValidationError");
    expect(code).not.toMatch(/x-api-signature|x-api-timestamp|clock-retry/);
  });
});
