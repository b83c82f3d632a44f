import { describe, expect, it } from 'vitest';
import { statusOf } from './transferStatus';

describe('statusOf', () => {
  it("shows a sent transfer's status as its sender's browser reported it", () => {
    expect(statusOf({ direction: 'sent', status: 'pending' }, undefined).text).toBe('Pending');
    expect(statusOf({ direction: 'sent', status: 'confirmed' }, undefined).text).toBe('Confirmed');
    expect(statusOf({ direction: 'sent', status: 'failed' }, undefined).text).toBe('Failed');
  });

  it('never calls a received transfer confirmed unless it was checked on the chain', () => {
    expect(statusOf({ direction: 'received', status: 'confirmed' }, 'verified').text).toBe(
      'Confirmed · verified on-chain',
    );
    expect(statusOf({ direction: 'received', status: 'confirmed' }, 'unverified').text).toBe(
      'Not verified: reported by the sender',
    );
    expect(statusOf({ direction: 'received', status: 'confirmed' }, 'checking').text).toBe(
      'Checking on-chain…',
    );
    expect(statusOf({ direction: 'received', status: 'confirmed' }, 'retrying')).toEqual({
      text: 'Not on the chain yet · checking again…',
      tone: 'pending',
    });
    expect(statusOf({ direction: 'received', status: 'confirmed' }, undefined).text).not.toMatch(/Confirmed/);
  });
});
