// Type-checked by `tsc --noEmit` in `npm test`, never run; test/readme/readme.test.ts checks that
// README.md shows exactly the code below the marker.
declare const baseUrl: string;
declare const clientId: string;
// ---- README.md ----
import { HubClient, HubSchemaError } from "public-hub-sdk";
import { schemas } from "./hub-schemas";

const hub = new HubClient({ baseUrl, clientId, hub: "alpha", schemas, validate: process.env.NODE_ENV === "production" ? "warn" : "throw" });
try {
  await hub.getHolder("0xabc…", { validate: "throw" }); // per call
} catch (error) {
  if (error instanceof HubSchemaError) console.error(error.operation, error.issues, error.data);
}
