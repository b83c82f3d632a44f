/** How deep {@link findCause} looks: a cause chain can be circular. */
const MAX_DEPTH = 16;

/**
 * Finds the first error in a chain of `cause`s that matches: the error itself, its `cause`, that one's
 * `cause`, and so on. Libraries wrap errors (viem wraps an RPC error in several layers), so what a caller
 * needs to tell apart is often a few causes down.
 *
 * @param error - The error thrown, of any type.
 * @param predicate - What to look for, e.g. {@link isDialError}.
 * @returns The first match, or `undefined` when none of the first 16 links of the chain matches.
 *
 * @example
 * ```ts
 * const wrapped = new Error('send failed', { cause: new DialError('wallet_mismatch') });
 * findCause(wrapped, isDialError); // the DialError
 * ```
 */
export function findCause<T>(error: unknown, predicate: (value: unknown) => value is T): T | undefined;
export function findCause(error: unknown, predicate: (value: unknown) => boolean): unknown;
export function findCause(error: unknown, predicate: (value: unknown) => boolean): unknown {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && current !== undefined && current !== null; depth++) {
    if (predicate(current)) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
