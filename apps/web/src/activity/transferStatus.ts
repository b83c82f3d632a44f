import type { Transfer } from './activityApi';

/**
 * A transfer's status line. Every status is what the server read on the chain; a received transfer is
 * listed only once the server proved it, so its "Confirmed" says so.
 */
export function statusOf(transfer: Pick<Transfer, 'direction' | 'status'>): {
  text: string;
  tone: 'ok' | 'pending' | 'bad';
} {
  if (transfer.status === 'failed') return { text: 'Failed', tone: 'bad' };
  if (transfer.status === 'pending') return { text: 'Pending', tone: 'pending' };
  return transfer.direction === 'sent'
    ? { text: 'Confirmed', tone: 'ok' }
    : { text: 'Confirmed · verified on-chain', tone: 'ok' };
}
