// Type-checked by `tsc --noEmit` in `npm test`, never run; test/readme/readme.test.ts checks that
// README.md shows exactly the code below the marker.
declare const baseUrl: string;
declare const clientId: string;
// ---- README.md ----
import * as v from "valibot";
import { HubClient } from "public-hub-sdk";

const hub = new HubClient({ baseUrl, clientId, hub: "alpha", schemas: { holder: v.object({ wallet: v.string(), bits: v.number() }) } });
const { bits } = await hub.getHolder("0xabc…");         // number
