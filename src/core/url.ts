// Moved to src/client/check-input.ts; kept for the server entry until it imports from there.
export { normalizeBaseUrl, pathOf } from "../client/check-input";
