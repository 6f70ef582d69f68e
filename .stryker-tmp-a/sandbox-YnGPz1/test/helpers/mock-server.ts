// @ts-nocheck
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import { HubClient, type HubClientOptions } from "public-hub-sdk";
import { createHubMock, type HubMockOptions } from "public-hub-sdk/mock";

/**
 * One MSW server per test file around a fresh spec mock (`setupServer` / `resetHandlers`), with
 * unhandled requests as errors so that nothing reaches a real network.
 */
export function useHubMock(options: HubMockOptions = {}) {
  const mock = createHubMock(options);
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());

  /** A client of hub `alpha` with its demo key; fast retries so tests do not wait; silent (the log has its own tests). */
  const client = (overrides: Partial<HubClientOptions> = {}) =>
    new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", retry: { backoff: 1 }, logLevel: "off", ...overrides });

  return { mock, server, client };
}
