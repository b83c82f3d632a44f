import { describe, expect, it } from 'vitest';
import { DialError, isDialError } from './errors.js';
import { findCause } from './findCause.js';

describe('findCause', () => {
  it('finds the error itself', () => {
    const error = new DialError('wallet_mismatch');
    expect(findCause(error, isDialError)).toBe(error);
  });

  it('finds a match several causes down, the first one', () => {
    const inner = new DialError('device_share_missing');
    const outer = new DialError('wallet_mismatch', { cause: inner });
    const wrapped = new Error('send failed', { cause: new Error('rpc', { cause: outer }) });
    expect(findCause(wrapped, isDialError)).toBe(outer);
    expect(findCause(wrapped, (value) => isDialError(value, 'device_share_missing'))).toBe(inner);
  });

  it('answers undefined when nothing matches, and for what is not an error', () => {
    expect(findCause(new Error('a', { cause: new Error('b') }), isDialError)).toBeUndefined();
    expect(findCause(undefined, () => true)).toBeUndefined();
    expect(findCause(null, () => true)).toBeUndefined();
  });

  it('stops on a circular chain', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    let calls = 0;
    expect(
      findCause(a, () => {
        calls++;
        return false;
      }),
    ).toBeUndefined();
    expect(calls).toBe(16);
  });

  it('looks at plain objects with a cause too', () => {
    const coded = { code: 4001 };
    expect(findCause({ cause: coded }, (value) => (value as { code?: unknown }).code === 4001)).toBe(coded);
  });
});
