import type { Transfer } from './activityApi';
import type { Verification } from './useVerifications';

/**
 * A sent transfer's status is what this user's browser saw in its receipt. A received one is only what the
 * sender said, so it counts as confirmed only once checked on the chain here.
 */
export function statusOf(
  transfer: Pick<Transfer, 'direction' | 'status'>,
  verification: Verification | undefined,
): { text: string; tone: 'ok' | 'pending' | 'bad' | 'unverified' } {
  if (transfer.direction === 'sent') {
    if (transfer.status === 'confirmed') return { text: 'Confirmed', tone: 'ok' };
    if (transfer.status === 'failed') return { text: 'Failed', tone: 'bad' };
    return { text: 'Pending', tone: 'pending' };
  }
  if (verification === 'verified') return { text: 'Confirmed · verified on-chain', tone: 'ok' };
  if (verification === 'unverified')
    return { text: 'Not verified: reported by the sender', tone: 'unverified' };
  if (verification === 'retrying') return { text: 'Not on the chain yet · checking again…', tone: 'pending' };
  return { text: 'Checking on-chain…', tone: 'pending' };
}
