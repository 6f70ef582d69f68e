// The mock asked with plain fetch (not through the SDK's reading of it): a fresh mock per test on
// its own origin, registered on the file's MSW server, and the raw requests of the spec.
import type { SetupServer } from "msw/node";
import { createHubMock, type HubMockOptions } from "public-hub-sdk/mock";
import { rawSign } from "./raw-sign";

export const KEY = { "x-api-key": "pk_alpha_demo" };

/** `mockWith(options)`: a mock on a new origin (`https://<name>N.example.com/api/v1`), its handlers in `server`. */
export function mocksOn(server: SetupServer, name: string) {
  let counter = 0;
  return (options: HubMockOptions = {}) => {
    const mock = createHubMock({ baseUrl: `https://${name}${++counter}.example.com/api/v1`, ...options });
    server.use(...mock.handlers);
    return mock;
  };
}

export const get = (mock: { baseUrl: string }, path: string, clientId = "pk_alpha_demo") => fetch(`${mock.baseUrl}${path}`, { headers: { "x-api-key": clientId } });

/** A signed award of 5 points to 0xabc (ref r-1), with `fields` over it. */
export const award = (mock: { baseUrl: string }, fields: Record<string, unknown>) => {
  const body = JSON.stringify({ wallet: "0xabc", amount: 5, reason: "quest", ref: "r-1", ...fields });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = rawSign("demo-secret-alpha", timestamp, "POST", `${new URL(mock.baseUrl).pathname}/hub/alpha/bits/earn`, body);
  return fetch(`${mock.baseUrl}/hub/alpha/bits/earn`, { method: "POST", body, headers: { ...KEY, "content-type": "application/json", "x-api-timestamp": timestamp, "x-api-signature": signature } });
};

export const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as unknown });
