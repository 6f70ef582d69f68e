// @ts-nocheck
import { HubServerClient, type HubServerClientOptions } from "public-hub-sdk/server";

export const SECRET = "demo-secret-alpha";
/** sha256("demo-secret-alpha") in hex, computed independently of the SDK. */
export const SIGNING_KEY = "91ee6a067442e07ac0984926504d93fc4a3c00277745d27cc9be451133ad65ec";

export function serverClient(baseUrl: string, overrides: Partial<HubServerClientOptions> = {}) {
  return new HubServerClient({ baseUrl, clientId: "pk_alpha_demo", hub: "alpha", secret: SECRET, retry: { backoff: 1 }, logLevel: "off", ...overrides });
}
