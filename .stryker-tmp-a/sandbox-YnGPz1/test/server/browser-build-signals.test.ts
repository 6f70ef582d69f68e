// @ts-nocheck
// The browser build of public-hub-sdk/server (issue 23, item 6): its compile error says in words
// what is wrong, and its run-time message offers only what works there.
import { writeFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as browserBuild from "../../src/server/browser";

const dir = fileURLToPath(new URL("../../.tmp/browser-build-types/", import.meta.url));

describe("the browser build of the server entry", () => {
  it("a call is a type error that names the problem in words, not 'never'", () => {
    mkdirSync(dir, { recursive: true });
    const file = `${dir}app.ts`;
    writeFileSync(
      file,
      `import { HubServerClient } from "../../src/server/browser";\n` +
        `new HubServerClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk", hub: "alpha", secret: "s" });\n`,
    );
    const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, skipLibCheck: true, types: [] });
    const messages = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/not assignable to parameter of type '"public-hub-sdk\/server does not run in a browser: the secret must stay on your server; award points from your backend"'/);
    expect(messages[0]).not.toMatch(/type 'never'/);
  }, 60_000);

  it("its message does not offer dangerouslyAllowBrowser, which it cannot honour", () => {
    const options = { baseUrl: "https://hub.example.com/api/v1", clientId: "pk", hub: "alpha", secret: "s", dangerouslyAllowBrowser: true };
    const attempt = () => new browserBuild.HubServerClient(options as never);
    expect(attempt).toThrow(browserBuild.BrowserNotAllowedError);
    expect(attempt).toThrow(/Your bundler resolved the "browser" build of public-hub-sdk\/server, which has no signing code: import it only from server code\./);
    expect(attempt).not.toThrow(/dangerouslyAllowBrowser/);
  });
});
