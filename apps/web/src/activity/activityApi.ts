import type { ActivityEntry, ActivityPage, RecordTransferRequest, Transfer } from '@dial/api';
import { requestJson } from '../api/client';

export type { ActivityEntry, ActivityPage, Transfer } from '@dial/api';

/**
 * Dispatched on `window` when this browser recorded a transfer or its outcome, so an activity list on
 * screen loads again (a transfer can finish after the person went back to the wallet).
 */
export const ACTIVITY_CHANGED = 'dial:activity-changed';

/** Which page of the history to load: at most `limit`, after `cursor` (a `nextCursor`), on one network or all. */
export interface ActivityQuery {
  limit?: number;
  cursor?: string | null;
  chainId?: number | null;
}

/** The signed-in user's history, newest first: Dial transfers and every other credit to the wallet. */
export function listActivity(options: ActivityQuery = {}): Promise<ActivityPage> {
  const query = new URLSearchParams();
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  if (options.cursor) query.set('cursor', options.cursor);
  if (options.chainId) query.set('chainId', String(options.chainId));
  const search = query.toString();
  return requestJson<ActivityPage>('GET', `/api/activity${search === '' ? '' : `?${search}`}`);
}

/** A transfer to record (`POST /api/activity`), its amount in base units as a bigint. */
export type NewTransfer = Omit<RecordTransferRequest, 'amount'> & { amount: bigint };

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

/** An entry of the list (a Dial transfer or a credit). */
export type { ActivityEntry as Entry };
