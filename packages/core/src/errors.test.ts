import { describe, expect, it } from 'vitest';
import {
  DialError,
  ERROR_CATALOGUE,
  ERROR_CODES,
  type ErrorCode,
  errorFromBody,
  isDialError,
  isErrorCode,
} from './errors.js';

describe('ERROR_CATALOGUE', () => {
  it('lists every code once, in snake_case', () => {
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(ERROR_CODES.length).toBeGreaterThan(0);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });

  it.each(ERROR_CODES)('gives %s a 4xx or 5xx status and a full-sentence message', (code) => {
    const { status, message } = ERROR_CATALOGUE[code];
    expect(Number.isInteger(status)).toBe(true);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(600);
    expect(message.trim()).not.toBe('');
    expect(message).toMatch(/\.$/);
  });

  it.each([
    ['invalid_data', 400],
    ['unauthorized', 401],
    ['forbidden_origin', 403],
    ['not_found', 404],
    ['embedded_wallet_already_exists', 409],
    ['wallet_mismatch', 409],
    ['too_many_requests', 429],
    ['internal_error', 500],
    ['delivery_failed', 502],
    ['network_error', 503],
    ['rate_limit_unavailable', 503],
    ['not_ready', 503],
  ] as const)('answers %s with HTTP %i', (code, status) => {
    expect(ERROR_CATALOGUE[code].status).toBe(status);
  });
});

describe('isErrorCode', () => {
  it('accepts catalogue codes only', () => {
    expect(isErrorCode('invalid_phone')).toBe(true);
    expect(isErrorCode('no_such_code')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode(400)).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
  });
});

describe('DialError', () => {
  it("carries its code, status and the catalogue's message", () => {
    const error = new DialError('wallet_not_found');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DialError');
    expect(error.code).toBe('wallet_not_found');
    expect(error.status).toBe(404);
    expect(error.message).toBe(ERROR_CATALOGUE.wallet_not_found.message);
    expect(error.details).toBeUndefined();
    expect(error.retryAfterSeconds).toBeUndefined();
  });

  it('takes a more precise message, details, a cause and a retry delay', () => {
    const cause = new Error('smtp down');
    const error = new DialError('too_many_requests', {
      message: 'Wait 30 seconds.',
      details: 'ip limit',
      cause,
      retryAfterSeconds: 30,
    });
    expect(error.message).toBe('Wait 30 seconds.');
    expect(error.details).toBe('ip limit');
    expect(error.cause).toBe(cause);
    expect(error.retryAfterSeconds).toBe(30);
    expect(error.status).toBe(429);
  });

  it('never uses details as the message', () => {
    const error = new DialError('invalid_data', { details: 'phone has letters' });
    expect(error.message).toBe(ERROR_CATALOGUE.invalid_data.message);
  });

  it('gives the body the API answers with', () => {
    expect(new DialError('invalid_code').toBody()).toEqual({
      error: { code: 'invalid_code', message: ERROR_CATALOGUE.invalid_code.message },
    });
  });
});

describe('isDialError', () => {
  it('recognizes a DialError, optionally of one code', () => {
    const error = new DialError('not_found');
    expect(isDialError(error)).toBe(true);
    expect(isDialError(error, 'not_found')).toBe(true);
    expect(isDialError(error, 'unauthorized')).toBe(false);
  });

  it('refuses other errors and look-alikes', () => {
    expect(isDialError(new Error('not_found'))).toBe(false);
    expect(isDialError({ name: 'DialError', code: 'not_found', status: 404 })).toBe(false);
  });
});

describe('errorFromBody', () => {
  it('reads a catalogue error with its message', () => {
    const error = errorFromBody({ error: { code: 'invalid_code', message: 'Try the newest code.' } }, 400);
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('invalid_code');
    expect(error.status).toBe(400);
    expect(error.message).toBe('Try the newest code.');
  });

  it("uses the catalogue's message when the body has none", () => {
    const error = errorFromBody({ error: { code: 'unauthorized' } }, 401);
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe(ERROR_CATALOGUE.unauthorized.message);
  });

  it('trusts the code in the body over the HTTP status', () => {
    expect(errorFromBody({ error: { code: 'code_expired', message: 'Expired.' } }, 500).code).toBe(
      'code_expired',
    );
  });

  it.each([
    ['an unknown code', { error: { code: 'exploded', message: 'Boom.' } }],
    ['a body without error', { message: 'Bad Gateway' }],
    ['an error that is a string', { error: 'oops' }],
    ['a null body', null],
    ['a text body', '<html>502</html>'],
  ])('turns %s into internal_error', (_label, body) => {
    const error = errorFromBody(body, 502);
    expect(error.code).toBe('internal_error');
    expect(error.status).toBe(500);
    expect(error.details).toBe('HTTP 502');
  });

  it('turns a bare 429 into too_many_requests', () => {
    expect(errorFromBody(undefined, 429).code).toBe('too_many_requests');
  });

  it.each([
    ['status 0', 0],
    ['no status', undefined],
  ])('turns %s without a catalogue body into network_error', (_label, status) => {
    const error = errorFromBody(undefined, status);
    expect(error.code).toBe('network_error');
    expect(error.status).toBe(503);
  });

  it('still reads a catalogue body that came without a status', () => {
    expect(errorFromBody({ error: { code: 'not_found' } }).code).toBe('not_found' satisfies ErrorCode);
  });
});
