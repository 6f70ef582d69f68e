// @ts-nocheck
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  // Relative asset URLs, so the built app works from any path it is served under.
  base: "./",
});
