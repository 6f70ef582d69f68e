// A server component reading through the browser-safe entry, rendered per request.
import { HubClient } from "public-hub-sdk";
import { hubOptions } from "./hub-options";

export const dynamic = "force-dynamic";

export default async function Page() {
  const hub = await new HubClient(hubOptions()).getHub();
  return <h1 id="hub-name">{String(hub.name)}</h1>;
}
