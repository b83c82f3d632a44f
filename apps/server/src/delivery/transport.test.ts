import { describe, expect, it } from 'vitest';
import { DeliveryError } from './transport.js';

describe('DeliveryError', () => {
  it('is an Error named DeliveryError with the status and cause it was given', () => {
    const cause = new Error('socket hang up');
    const error = new DeliveryError('Twilio could not be reached', { cause, status: 502 });

    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('DeliveryError');
    expect(error.message).toBe('Twilio could not be reached');
    expect(error.status).toBe(502);
    expect(error.cause).toBe(cause);
  });

  it('has no status and no own cause when given none', () => {
    const error = new DeliveryError('refused');

    expect(error.status).toBeUndefined();
    expect(Object.hasOwn(error, 'cause')).toBe(false);
  });
});
