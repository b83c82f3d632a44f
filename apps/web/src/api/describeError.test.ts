import { DialError, ERROR_CATALOGUE } from '@dial/core';
import { describe, expect, it } from 'vitest';
import { describeError, formatWait, toDialError } from './describeError';

describe('describeError', () => {
  it('shows the catalogue message of a DialError', () => {
    expect(describeError(new DialError('invalid_code'))).toBe(ERROR_CATALOGUE.invalid_code.message);
  });

  it('adds the wait when the server said how long it is', () => {
    const error = new DialError('too_many_requests', { retryAfterSeconds: 90 });
    expect(describeError(error)).toBe(
      `${ERROR_CATALOGUE.too_many_requests.message} You can try again in 2 minutes.`,
    );
  });

  it('shows the internal_error message for anything that is not a DialError', () => {
    expect(describeError(new Error('boom'))).toBe(ERROR_CATALOGUE.internal_error.message);
  });
});

describe('toDialError', () => {
  it('keeps a DialError and wraps anything else as internal_error with its cause', () => {
    const dialError = new DialError('network_error');
    expect(toDialError(dialError)).toBe(dialError);
    const cause = new Error('boom');
    const wrapped = toDialError(cause);
    expect(wrapped).toBeInstanceOf(DialError);
    expect(wrapped).toMatchObject({ code: 'internal_error', cause });
  });
});

describe('formatWait', () => {
  it('counts seconds, then minutes and hours rounded up', () => {
    expect(formatWait(1)).toBe('1 second');
    expect(formatWait(45)).toBe('45 seconds');
    expect(formatWait(60)).toBe('1 minute');
    expect(formatWait(61)).toBe('2 minutes');
    expect(formatWait(7200)).toBe('2 hours');
  });
});
