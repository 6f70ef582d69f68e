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
export { HubClient, HubPromise, type LeaderboardQuery, type WithResponse, type WithWriteResponse } from "./client/hub-client";
export { leaderboardRows, type LeaderboardRowOf } from "./client/leaderboard-rows";
export { iterateLeaderboard, HubPagingError, type LeaderboardPagesOptions, type LeaderboardPageParams, type HubPagingProblem } from "./client/leaderboard-pages";
export { answerSignals, awardOutcome, errorFields, type AwardAnswer, type AwardOutcome, type AwardOutcomeContext } from "./core/answer";
export {
  HubError,
  HubApiError,
  BadRequestError,
  UnauthorizedError,
  ForbiddenError,
  NotFoundError,
  ConflictError,
  UnprocessableEntityError,
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
} from "./core/errors";
export type { HubClientOptions, RequestOptions, RetryOptions, RequestEvent, RequestStartEvent, ResponseEvent, Logger, LogLevel } from "./core/types/options";
export { defineTelemetry } from "./client/observe";
export type { HubTelemetry, HubTelemetryDefinition, HubCallContext, HubCallObserver } from "./core/types/telemetry";
export type { DiscoveryDocument, HubConfig, Leaderboard, LeaderboardRow, HolderStatus, StakeStatus, AwardResult } from "./core/types/responses";
export type { StandardSchemaV1, StandardResult, StandardIssue } from "./core/types/standard-schema";
export type { HubSchemas, HubOperation, HubData, SchemaOutput, ValidateMode } from "./core/types/schemas";
export type { HubProfile, HubSignal, HubErrorFormat, HubRateLimitHeaders, HubPaging } from "./core/types/profile";
