/**
 * `public-hub-sdk`: the browser-safe entry. Reads of one hub with the public client id; typed
 * errors. Signed awards live in `public-hub-sdk/server`, which this entry never imports.
 *
 * @module public-hub-sdk
 * @example
 * ```ts
 * import { HubClient, NotFoundError } from "public-hub-sdk";
 *
 * const hub = new HubClient({ baseUrl: "https://hub.example.com/api/v1", clientId: "pk_alpha", hub: "alpha" });
 * try {
 *   console.log(await hub.getHub());
 * } catch (error) {
 *   if (error instanceof NotFoundError) console.log("no such hub");
 * }
 * ```
 */
export { HubClient, type HubCall, type LeaderboardQuery, type RateLimitStatus } from "./client/hub-client";
export { HubPromise, type WithResponse, type WithWriteResponse } from "./core/hub-promise";
export { leaderboardRows, type LeaderboardRowOf } from "./client/leaderboard-rows";
export { errorFields } from "./core/http/body";
export {
  HubError,
  type HubErrorInit,
  HubApiError,
  type ApiErrorInit,
  type SigningDiagnostics,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  ServerError,
  HubConnectionError,
  HubTimeoutError,
  HubAbortError,
  HubRedirectError,
  HubValidationError,
  HubResponseError,
  HubSchemaError,
  type ResponseProblem,
  type ValidationIssue,
} from "./core/errors/index";
export type { HubClientOptions, RequestOptions, RetryOptions, RateLimitOptions, RequestEvent, RequestStartEvent, ResponseEvent } from "./core/types/options";
export type { Log, Logger, LogLevel } from "./core/log";
export type { HubTelemetry, HubCallContext } from "./core/telemetry/types";
export type {
  JsonObject,
  DiscoveryDocument,
  HubConfig,
  Leaderboard,
  LeaderboardRow,
  HolderStatus,
  StakeStatus,
  AwardResult,
} from "./core/types/responses";
export type { StandardSchemaV1, StandardResult, StandardIssue } from "./core/types/standard-schema";
export type { HubSchemas, HubOperation, HubData, LenientData, SchemaOutput, ValidateMode } from "./core/types/schemas";
