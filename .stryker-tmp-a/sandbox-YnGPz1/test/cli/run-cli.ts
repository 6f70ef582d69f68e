// @ts-nocheck
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../cli/src/main";
import type { CliIo } from "../../cli/src/io";
import { SECRET } from "../helpers/server-client";

const dir = mkdtempSync(join(tmpdir(), "hub-cli-"));
let n = 0;

/** Writes a file for a CLI test, under a fresh name with the given extension. */
export function file(ext: string, text: string): string {
  const path = join(dir, `f${n++}.${ext}`);
  writeFileSync(path, text);
  return path;
}

export const tmpPath = (name: string) => join(dir, `${n++}-${name}`);

/** The demo key's environment for the mock at `baseUrl`. */
export const envFor = (baseUrl: string) => ({ HUB_BASE_URL: baseUrl, HUB_CLIENT_ID: "pk_alpha_demo", HUB_SLUG: "alpha", HUB_SECRET: SECRET });

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], io: Partial<CliIo> & { env: CliIo["env"] }) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, {
    isTTY: false,
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    ...io,
  });
  return { code, stdout, stderr };
}
