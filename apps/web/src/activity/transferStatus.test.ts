import { describe, expect, it } from 'vitest';
import { statusOf } from './transferStatus';

describe('statusOf', () => {
  it('shows a sent transfer’s status as the server read it on the chain', () => {
    expect(statusOf({ direction: 'sent', status: 'pending' })).toEqual({ text: 'Pending', tone: 'pending' });
    expect(statusOf({ direction: 'sent', status: 'confirmed' })).toEqual({ text: 'Confirmed', tone: 'ok' });
    expect(statusOf({ direction: 'sent', status: 'failed' })).toEqual({ text: 'Failed', tone: 'bad' });
  });

  it('says a received transfer was verified on the chain (the server lists only proven ones)', () => {
    expect(statusOf({ direction: 'received', status: 'confirmed' })).toEqual({
      text: 'Confirmed · verified on-chain',
      tone: 'ok',
    });
    expect(statusOf({ direction: 'received', status: 'failed' })).toEqual({ text: 'Failed', tone: 'bad' });
    // Never listed by the server; should one be, it is not called confirmed.
    expect(statusOf({ direction: 'received', status: 'pending' }).text).toBe('Pending');
  });
});
