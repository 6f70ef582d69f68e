/**
 * What the server entry needs of a `HubClient` that no user does: its transport, and a call with
 * a signer. Kept in a module-private map rather than on the class, so the browser entry's public
 * API carries no hook that only the server entry uses.
 * @internal
 */
import type { RequestOptions } from "./types/options";
import type { WithWriteResponse } from "./hub-promise";
import type { BodyKind } from "./http/body";
import type { CallSpec } from "./http/call";
import type { Transport } from "./http/transport";
import type { HubOperation } from "./types/schemas";

/** A call as the server entry makes it: a `HubCall` with a signer. */
export interface InternalCall {
  method: "POST";
  segments: string[];
  body?: string;
  kind: BodyKind;
  sign: CallSpec["sign"];
  /** An earlier send of this write may have been applied (see `CallSpec.appliedEarlier`). */
  appliedEarlier?: boolean;
  operation: HubOperation;
  /** The public call's observers (`awardPoints` traces its one or two sends as one call). */
  trace?: CallSpec["trace"];
}

export interface ClientInternals {
  transport: Transport;
  /** A write: its result says whether an earlier attempt may have been applied. */
  send<T>(call: InternalCall, options: RequestOptions<T> | undefined): Promise<WithWriteResponse<T>>;
}

export const internals = new WeakMap<object, ClientInternals>();
