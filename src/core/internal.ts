/**
 * What the server entry needs of a `HubClient` that no user does: its transport, and a call with
 * a signer. Kept in a module-private map rather than on the class, so the browser entry's public
 * API carries no hook that only the server entry uses.
 * @internal
 */
import type { RequestOptions } from "./types/options";
import type { WithResponse } from "./hub-promise";
import type { BodyKind } from "./http/body";
import type { CallSpec } from "./http/call";
import type { Transport } from "./http/transport";

/** A call as the server entry makes it: a `HubCall` with a signer. */
export interface InternalCall {
  method: "GET" | "POST";
  segments: string[];
  body?: string;
  kind: BodyKind;
  sign: CallSpec["sign"];
  /** The public call's observers (`awardPoints` traces its one or two sends as one call). */
  trace?: CallSpec["trace"];
}

export interface ClientInternals {
  transport: Transport;
  send<T>(call: InternalCall, options: RequestOptions<T> | undefined): Promise<WithResponse<T>>;
}

export const internals = new WeakMap<object, ClientInternals>();
