// @ts-nocheck
// The `public-hub` bin: the process's arguments, environment and streams, and Ctrl-C, given to main.
import { main } from "./main";

const controller = new AbortController();
// The first Ctrl-C stops the campaign cleanly (journal flushed); a second one kills at once.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => controller.abort(new Error(signal)));

process.exitCode = await main(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  isTTY: process.stderr.isTTY === true,
  signal: controller.signal,
});
