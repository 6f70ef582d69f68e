// @ts-nocheck
import type { AwardInput } from "../award-schema";

/**
 * The input of a campaign: any iterable, sync or async (an array, a generator, a stream of rows).
 * @example
 * ```ts
 * async function* rows(): AsyncGenerator<AwardInput> {
 *   for await (const line of lines) yield JSON.parse(line);
 * }
 * const input: AwardSource = rows();
 * ```
 */
export type AwardSource = Iterable<AwardInput> | AsyncIterable<AwardInput>;

/**
 * One reader of the input shared by every worker. Calls are chained, so an async iterator is never
 * asked for its next item before it answered the previous one (not every iterator allows that).
 * Only the items being sent are held: the input is never read ahead.
 */
export function pullFrom(source: AwardSource): {
  next: () => IteratorResult<AwardInput> | Promise<IteratorResult<AwardInput>>;
  close: () => Promise<void>;
} {
  let finished = false;
  if (!(Symbol.asyncIterator in source)) {
    // A sync iterable (an array, a generator) answers at once: no promise per item.
    const iterator = source[Symbol.iterator]();
    const next = (): IteratorResult<AwardInput> => {
      if (finished) return { done: true, value: undefined };
      const item = iterator.next();
      if (item.done) finished = true;
      return item;
    };
    const close = async () => {
      if (!finished) {
        finished = true;
        iterator.return?.();
      }
    };
    return { next, close };
  }
  const iterator = source[Symbol.asyncIterator]();
  let chain: Promise<unknown> = Promise.resolve();
  const next = () => {
    const result = chain.then(async () => {
      if (finished) return { done: true, value: undefined } as IteratorResult<AwardInput>;
      const item = await iterator.next();
      if (item.done) finished = true;
      return item;
    });
    chain = result.catch(() => undefined);
    return result;
  };
  // Lets a generator run its `finally` (close a file) when the campaign stops early.
  const close = async () => {
    await chain;
    if (!finished) {
      finished = true;
      await iterator.return?.();
    }
  };
  return { next, close };
}

/** The input's size when it can tell without being read (an array, a Set…). */
export function knownSize(source: AwardSource): number | undefined {
  if (Array.isArray(source)) return source.length;
  const size = (source as { size?: unknown }).size;
  return typeof size === "number" ? size : undefined;
}
