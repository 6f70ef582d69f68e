// Minimal: the app's own directory is the root, so nothing resolves to a parent folder.
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL(".", import.meta.url));

/** @type {import("next").NextConfig} */
export default {
  turbopack: { root },
  outputFileTracingRoot: root,
};
