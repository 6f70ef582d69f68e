/**
 * `public-hub-sdk/otel`: OpenTelemetry for the SDK's clients, in one option. The only entry that
 * imports `@opentelemetry/api` (an optional peer dependency: install it to use this entry).
 *
 * @module public-hub-sdk/otel
 * @example
 * ```ts
 * import { HubClient } from "public-hub-sdk";
 * import { openTelemetry } from "public-hub-sdk/otel";
 *
 * const hub = new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha", hub: "alpha", telemetry: openTelemetry() });
 * ```
 */
// @ts-nocheck

export { openTelemetry, type OpenTelemetryOptions } from "./open-telemetry";
export type { HubTelemetry, HubCallContext, HubCallObserver } from "../core/types/telemetry";
