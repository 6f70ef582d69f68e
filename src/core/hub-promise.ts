/**
 * A successful call with its HTTP metadata.
 * @example
 * ```ts
 * const { data, response, requestId } = await hub.getHub().withResponse();
 * console.log(response.status, requestId, data);
 * ```
 */
export interface WithResponse<T> {
  /** The decoded body, exactly what awaiting the call gives. */
  data: T;
  /** The final HTTP response (its body already read: use `data`). Shared by callers whose identical reads were deduplicated. */
  response: Response;
  /** The `x-request-id` response header, when the server sent one: quote it to the API operator. */
  requestId: string | undefined;
  /** How many attempts the call sent, the answered one included (1 when nothing was retried). */
  attempts: number;
}

/**
 * A successful write (`awardPoints`) with its HTTP metadata, and whether an earlier attempt of
 * this same call may have been applied.
 * @example
 * ```ts
 * const { data, mayHaveBeenAppliedEarlier } = await server.awardPoints(award).withResponse();
 * if (data.duplicate && !mayHaveBeenAppliedEarlier) console.log("already claimed by an earlier call");
 * ```
 */
export interface WithWriteResponse<T> extends WithResponse<T> {
  /**
   * An attempt before the last one may have been applied (its answer was lost: a reset, a timeout,
   * a 5xx). The server's answer to the last attempt may then describe this call's own award: a
   * `duplicate: true` is not proof that an earlier call claimed the `ref`. False when the first
   * attempt was answered, or every earlier one was refused before it could apply (429, a refused
   * connection).
   */
  mayHaveBeenAppliedEarlier: boolean;
}

/**
 * What every client method returns: a `Promise` of the data that also offers `.withResponse()`
 * for the response and its request id (openai-node's `APIPromise` shape). The request starts at
 * once, whether or not `.withResponse()` is called.
 *
 * @example
 * ```ts
 * const config = await hub.getHub();                                  // the data
 * const { data, requestId } = await hub.getHub().withResponse();      // the data and its metadata
 * ```
 */
export class HubPromise<T, R extends WithResponse<T> = WithResponse<T>> extends Promise<T> {
  readonly #source: Promise<R>;

  // Private: `HubPromise.run` is the one way to make one (it turns a throw into a rejection).
  private constructor(source: Promise<R>) {
    super((resolve, reject) => {
      source.then((result) => resolve(result.data), reject);
    });
    this.#source = source;
  }

  /**
   * `then`, `catch` and `finally` return plain promises, not HubPromises with a missing source.
   * @example
   * ```ts
   * hub.getHub().then((config) => config.name); // a plain Promise<string | undefined>
   * ```
   */
  // Stryker disable next-line BlockStatement: a species of undefined means the default, Promise, as well
  static override get [Symbol.species]() {
    return Promise;
  }

  /**
   * The data together with the final `Response` and `requestId`.
   * @example
   * ```ts
   * const { data, response } = await hub.getLeaderboard({ limit: 5 }).withResponse();
   * ```
   */
  withResponse(): Promise<R> {
    // Whoever awaits only this must not see an "unhandled rejection" of the data promise too.
    super.then(undefined, () => undefined);
    return this.#source;
  }

  /**
   * Runs `call` (a throw becomes a rejection) and wraps its result: the one way client methods,
   * and subclasses adding calls, make a `HubPromise`.
   * @example
   * ```ts
   * const call = HubPromise.run(async () => ({ data: 1, response: new Response("1"), requestId: undefined, attempts: 1 }));
   * ```
   */
  static run<T, R extends WithResponse<T> = WithResponse<T>>(call: () => Promise<R>): HubPromise<T, R> {
    return new HubPromise((async () => call())());
  }
}
