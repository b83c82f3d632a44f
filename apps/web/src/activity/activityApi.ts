import { requestJson } from '../api/client';

/**
 * Dispatched on `window` when this browser recorded a transfer or its outcome, so an activity list on
 * screen loads again (a transfer can finish after the person went back to the wallet).
 */
export const ACTIVITY_CHANGED = 'dial:activity-changed';

/** A transfer in the activity list (docs/api.md `Transfer`). */
export interface Transfer {
  id: string;
  direction: 'sent' | 'received';
  chainId: number;
  txHash: `0x${string}`;
  from: `0x${string}`;
  to: `0x${string}`;
  asset: 'native' | 'usdc';
  /** Base units, as a decimal string. */
  amount: string;
  /**
   * What the server read on the chain: `pending` until it has seen the transaction mined, then the
   * receipt's outcome. A `received` transfer is listed only once the server proved it (from the sender's
   * wallet, to this one, with this amount), so it is never `pending`.
   */
  status: 'pending' | 'confirmed' | 'failed';
  createdAt: string;
  /** The other side's number masked to its last four digits ("*7654"), or null. */
  counterparty: { phone: string | null };
}

export interface ActivityPage {
  items: Transfer[];
  /** Pass as `before` for the next (older) page; null when there is none. */
  nextBefore: string | null;
}

/** The signed-in user's transfers, newest first. */
export function listActivity(
  options: { limit?: number; before?: string | null } = {},
): Promise<ActivityPage> {
  const query = new URLSearchParams();
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.before) query.set('before', options.before);
  const search = query.toString();
  return requestJson<ActivityPage>('GET', `/api/activity${search === '' ? '' : `?${search}`}`);
}

export interface NewTransfer {
  chainId: number;
  txHash: `0x${string}`;
  /** The recipient (for USDC too, not the token contract). */
  to: `0x${string}`;
  asset: 'native' | 'usdc';
  amount: bigint;
  /** E.164, when the recipient was chosen by phone number. */
  recipientPhone?: string;
}

/** Records a transaction this browser sent; the server checks it on the chain at once. */
export function recordTransfer(transfer: NewTransfer): Promise<Transfer> {
  const { amount, recipientPhone, ...rest } = transfer;
  const body = { ...rest, amount: amount.toString(), ...(recipientPhone ? { recipientPhone } : {}) };
  return requestJson<Transfer>('POST', '/api/activity', { body });
}

/**
 * Asks the server to check a transfer this user sent on its chain now (after this browser saw its receipt),
 * and answers with its status as the server read it. The server believes nothing the browser says about the
 * outcome.
 */
export function checkTransferNow(id: string): Promise<Transfer> {
  return requestJson<Transfer>('PATCH', `/api/activity/${encodeURIComponent(id)}`, { body: {} });
}
