// `node --import ./record-packages.mjs …`: appends every package the process imports (each bare
// specifier, as written in an import; Node's own modules left out) to the file named by
// $RECORD_PACKAGES, one per line. The specifier, not the resolved path: `public-hub-sdk` is a
// workspace link, resolved outside node_modules.
import { appendFileSync } from "node:fs";
import { isBuiltin, register } from "node:module";
import { isMainThread } from "node:worker_threads";

// This file is also the hooks module, loaded again on the hooks thread.
if (isMainThread) register(import.meta.url);

/** @type {import("node:module").ResolveHook} */
export async function resolve(specifier, context, next) {
  if (!isBuiltin(specifier) && !/^(data:|file:|\.|\/)/.test(specifier)) appendFileSync(String(process.env.RECORD_PACKAGES), `${specifier}\n`);
  return next(specifier, context);
}
