// @ts-nocheck
import { rawSign } from "../helpers/raw-sign";
import type { TestHub } from "./hub";

/** Plain `fetch` against a test hub, signed by the test-only signer (not the SDK's). */
export function rawClient(hub: TestHub) {
  const get = (path: string, headers: Record<string, string> = { "x-api-key": hub.clientId }) => fetch(`${hub.baseUrl}${path}`, { headers });
  const award = (body: Record<string, unknown>, { secret = hub.secret, timestamp = String(Math.floor(Date.now() / 1000)), slug = hub.hub } = {}) => {
    const path = `${new URL(hub.baseUrl).pathname}/hub/${slug}/bits/earn`;
    const text = JSON.stringify(body);
    return fetch(`${hub.baseUrl}/hub/${slug}/bits/earn`, {
      method: "POST",
      body: text,
      headers: {
        "content-type": "application/json",
        "x-api-key": hub.clientId,
        "x-api-timestamp": timestamp,
        "x-api-signature": rawSign(secret, timestamp, "POST", path, text),
      },
    });
  };
  return { get, award };
}
