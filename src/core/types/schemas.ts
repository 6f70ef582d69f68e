/**
 * Response shapes declared once per client. The spec shows no response bodies, so the SDK
 * declares none of its own (docs/spec-decisions.md); the people who know their hub's shapes give
 * them here, as Standard Schemas of any library, and every read, `withResponse()`, `hubQueries`
 * and the mock take their types from them. Types only: no schema library is imported.
 */
import type { AwardResult, DiscoveryDocument, HolderStatus, HubConfig, Leaderboard, StakeStatus } from "./responses";
import type { StandardSchemaV1 } from "./standard-schema";

/**
 * The response shapes of a client's operations, one optional Standard Schema each (zod, zod/mini,
 * valibot, arktype…). An operation without one keeps the SDK's lenient type.
 * @example
 * ```ts
 * import * as z from "zod";
 * const schemas = {
 *   holder: z.object({ wallet: z.string(), bits: z.number() }),
 *   stakeStatus: z.object({ staked: z.number() }),
 * } satisfies HubSchemas;
 * const hub = new HubClient({ baseUrl, clientId, hub: "alpha", schemas });
 * const { bits } = await hub.getHolder("0xabc"); // number
 * ```
 */
export interface HubSchemas {
  /** The discovery document (`discover()`). */
  discovery?: StandardSchemaV1 | undefined;
  /** The hub's configuration (`getHub()`). */
  hub?: StandardSchemaV1 | undefined;
  /** The leaderboard (`getLeaderboard()`), an object or a bare array as your server sends it. */
  leaderboard?: StandardSchemaV1 | undefined;
  /** A wallet's holder status and balance (`getHolder()`). */
  holder?: StandardSchemaV1 | undefined;
  /** A wallet's staking summary (`getStakeStatus()`). */
  stakeStatus?: StandardSchemaV1 | undefined;
  /** The answer to an award (`awardPoints()`, `HubServerClient` only). */
  award?: StandardSchemaV1 | undefined;
}

/** The keys of {@link HubSchemas} at run time, for the option checks and the mock. */
export const HUB_OPERATIONS = ["discovery", "hub", "leaderboard", "holder", "stakeStatus", "award"] as const;

/** The values of {@link ValidateMode} at run time, for the option checks (all of them: a type test says so). */
export const VALIDATE_MODES: readonly ValidateMode[] = ["throw", "warn", "off"];

/** The name of one operation, as a key of {@link HubSchemas}. */
export type HubOperation = keyof HubSchemas;

/**
 * What to do with an answer that does not fit its schema: `"throw"` rejects with
 * `HubSchemaError`; `"warn"` returns the data as sent and logs each operation and field path that
 * did not fit (once per client); `"off"` checks nothing at run time (the types still come from the
 * schemas).
 */
export type ValidateMode = "throw" | "warn" | "off";


/** The output type of a Standard Schema. */
export type SchemaOutput<Schema extends StandardSchemaV1> = NonNullable<Schema["~standard"]["types"]>["output"];

/**
 * The data type of operation `K` for a client declared with schemas `S`: the schema's output, or
 * the SDK's lenient type when `S` has no schema for `K`.
 */
export type HubData<S, K extends HubOperation> = 0 extends 1 & S
  ? (K extends "discovery" ? DiscoveryDocument : K extends "hub" ? HubConfig : K extends "leaderboard" ? Leaderboard : K extends "holder" ? HolderStatus : K extends "stakeStatus" ? StakeStatus : AwardResult) // an untyped client (`HubClient<any>`, a JSDoc `HubClient`): the lenient types
  : S extends { readonly [P in K]: infer Schema extends StandardSchemaV1 } ? SchemaOutput<Schema> : (K extends "discovery" ? DiscoveryDocument : K extends "hub" ? HubConfig : K extends "leaderboard" ? Leaderboard : K extends "holder" ? HolderStatus : K extends "stakeStatus" ? StakeStatus : AwardResult);
