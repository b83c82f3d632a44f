import type {
  ActivityEntry,
  ActivityPage,
  ActivityQuery as ContractActivityQuery,
  RecordTransferRequest,
  Transfer,
} from '@dial/api';
import { callApi } from '../api/client';

export type { ActivityEntry, ActivityPage, Transfer } from '@dial/api';

/**
 * Dispatched on `window` when this browser recorded a transfer or its outcome, so an activity list on
 * screen loads again (a transfer can finish after the person went back to the wallet).
 */
export const ACTIVITY_CHANGED = 'dial:activity-changed';

/**
 * Which page of the history to load (`listActivity`'s query): at most `limit`, after `cursor` (a
 * `nextCursor`), on one network or all (null: all).
 */
export type ActivityQuery = { [K in keyof ContractActivityQuery]?: ContractActivityQuery[K] | null };

/** The signed-in user's history, newest first: Dial transfers and every other credit to the wallet. */
export function listActivity(options: ActivityQuery = {}): Promise<ActivityPage> {
  const { limit, cursor, chainId } = options;
  return callApi('listActivity', {
    query: { limit: limit ?? undefined, cursor: cursor || undefined, chainId: chainId || undefined },
  });
}

/** A transfer to record (`recordTransfer`), its amount in base units as a bigint. */
export type NewTransfer = Omit<RecordTransferRequest, 'amount'> & { amount: bigint };

/** Records a transaction this browser sent; the server checks it on the chain at once. */
export function recordTransfer(transfer: NewTransfer): Promise<Transfer> {
  const { amount, recipientPhone, ...rest } = transfer;
  const body = { ...rest, amount: amount.toString(), ...(recipientPhone ? { recipientPhone } : {}) };
  return callApi('recordTransfer', { body });
}

/**
 * Asks the server to check a transfer this user sent on its chain now (after this browser saw its receipt),
 * and answers with its status as the server read it. The server believes nothing the browser says about the
 * outcome.
 */
export function checkTransferNow(id: string): Promise<Transfer> {
  return callApi('checkTransfer', { params: { id } });
}

/** An entry of the list (a Dial transfer or a credit). */
export type { ActivityEntry as Entry };
