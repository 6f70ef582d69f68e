// @ts-nocheck
// @vitest-environment happy-dom
import { QueryClient } from "@tanstack/react-query";
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForbiddenError, HubClient, type HubClientOptions } from "public-hub-sdk";
import { HubApp } from "../../examples/react-query/src/hub-app";
import { schemas } from "../../examples/react-query/src/hub-schemas";
import { useHubMock } from "../helpers/mock-server";

// The app's schemas module serves both sides: its client, and the mock that checks what it serves.
const { mock } = useHubMock({ schemas });
const client = (overrides: Partial<HubClientOptions> = {}) =>
  new HubClient({ baseUrl: mock.baseUrl, clientId: "pk_alpha_demo", hub: "alpha", retry: { backoff: 1 }, logLevel: "off", ...overrides, schemas });
const WALLET = "0x1111111111111111111111111111111111111111";
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | undefined;
let caught: unknown[] = [];
let queryClient: QueryClient | undefined;
afterEach(() => {
  act(() => root?.unmount());
  queryClient?.clear();
  document.body.replaceChildren();
});

async function render(hub = client()) {
  const container = document.createElement("div");
  document.body.append(container);
  queryClient = new QueryClient();
  caught = [];
  // React reports errors its boundaries caught here (by default on console.error).
  root = createRoot(container, { onCaughtError: (error) => void caught.push(error) });
  await act(async () => root?.render(createElement(HubApp, { hub, queryClient: queryClient! })));
  return container;
}

describe("examples/react-query", () => {
  it("shows the hub name (useSuspenseQuery) and the top five stakers (useQuery)", async () => {
    const page = await render();
    await vi.waitFor(() => expect(page.querySelector("h1")?.textContent).toBe("Alpha Hub"));
    await vi.waitFor(() => expect(page.querySelectorAll("li")).toHaveLength(5));
    expect(page.querySelector("li")?.textContent).toBe(`${WALLET} — 52000 staked`);
    expect(mock.requests.map((request) => new URL(request.url).pathname).sort()).toEqual(["/api/v1/hub/alpha", "/api/v1/hub/alpha/leaderboard"]);
  });

  it("asks for a wallet's points only once there is a wallet, and refreshes every read of the hub", async () => {
    const page = await render();
    await vi.waitFor(() => expect(page.querySelectorAll("li")).toHaveLength(5));
    expect(mock.requests.some((request) => request.url.includes("/holder/"))).toBe(false);

    const input = page.querySelector("input") as HTMLInputElement;
    input.value = WALLET;
    await act(async () => page.querySelector("form")?.requestSubmit());
    await vi.waitFor(() => expect(page.querySelector("[data-testid=points]")?.textContent).toBe(`${WALLET}: 250 points`));

    const before = mock.requests.length;
    await act(async () => (page.querySelector("section button") as HTMLButtonElement).click());
    await vi.waitFor(() => expect(mock.requests.length - before).toBe(3)); // hub, leaderboard, holder
  });

  it("explains a key of another hub", async () => {
    const page = await render(client({ clientId: "pk_beta_demo" }));
    // The boundary's alert (with data-error) replaces the whole page, the leaderboard's own too.
    await vi.waitFor(() => expect(page.querySelector("[role=alert][data-error]")?.textContent).toBe("This key belongs to another hub."));
    expect(page.querySelectorAll("[role=alert]")).toHaveLength(1);
    expect(page.querySelector("[role=alert]")?.getAttribute("data-error")).toBe("ForbiddenError");
    expect(caught[0]).toBeInstanceOf(ForbiddenError);
  });
});
