// Type-checked by `tsc --noEmit` in `npm test`, never run; test/readme/readme.test.ts checks that
// README.md shows exactly the code below the marker.
// ---- README.md ----
import { createHubMock } from "public-hub-sdk/mock";
import { HubClient } from "public-hub-sdk";
import { schemas } from "./hub-schemas";              // the module the app's client uses

const mock = createHubMock({ schemas });
const hub = new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", schemas });
