// @ts-nocheck
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { TestHub } from "./hub";
import { rawClient } from "./raw-client";

/** One MSW server around test hubs for one test file (one server a file: two would both intercept); unhandled requests are errors. */
export function useHub(hub: TestHub, ...more: TestHub[]) {
  const server = setupServer(...hub.handlers, ...more.flatMap((other) => other.handlers));
  beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
  afterEach(() => [hub, ...more].forEach((each) => each.reset()));
  afterAll(() => server.close());
  return { server, ...rawClient(hub) };
}

/** A clock the test moves by hand, starting now (signatures made with the real clock stay in its window). */
export function handClock() {
  let at = Date.now();
  return { now: () => at, advance: (ms: number) => void (at += ms) };
}
