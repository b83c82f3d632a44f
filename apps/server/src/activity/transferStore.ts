import { randomUUID } from 'node:crypto';
import { DialError } from '@dial/core';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { accountWallet, findAccountByWallet } from '../auth/accountWallet.js';
import type { Database, TransferAsset, TransfersTable } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { type ActivityEntry as ActivityItem, transferEntry } from './activityList.js';

/** A transfer to record, checked and normalised by the route. */
export interface NewTransfer {
  senderUserId: string;
  chainId: number;
  /** Lower-case. */
  txHash: string;
  /** Checksummed. */
  to: string;
  asset: TransferAsset;
  /** A decimal string without leading zeros. */
  amount: string;
  /** E.164. */
  recipientPhone: string | null;
}

/** A transfer row with the phone numbers its counterparty is read from (unmasked: never sent as is). */
type TransferRow = Selectable<TransfersTable> & {
  sender_phone: string | null;
  recipient_user_phone: string | null;
};

/**
 * The first phone number of the user in `column` (as `GET /api/me` shows it, kept on the user's row), as a
 * correlated sub-query.
 */
function phoneOf(
  eb: ExpressionBuilder<Database, 'transfers'>,
  column: 'sender_user_id' | 'recipient_user_id',
) {
  return eb.selectFrom('users').select('users.phone').whereRef('users.id', '=', `transfers.${column}`);
}

function selectTransfers(db: Kysely<Database>) {
  return db
    .selectFrom('transfers')
    .selectAll('transfers')
    .select((eb) => [
      phoneOf(eb, 'sender_user_id').as('sender_phone'),
      phoneOf(eb, 'recipient_user_id').as('recipient_user_phone'),
    ]);
}

/** A row as `viewerId` sees it: {@link transferEntry}, with the phone numbers read along with the row. */
function toItem(row: TransferRow, viewerId: string): ActivityItem {
  const phones = new Map<string, string>();
  if (row.sender_phone !== null) phones.set(row.sender_user_id, row.sender_phone);
  if (row.recipient_user_id !== null && row.recipient_user_phone !== null) {
    phones.set(row.recipient_user_id, row.recipient_user_phone);
  }
  return transferEntry(row, viewerId, phones);
}

/**
 * Records a transfer the user says they sent from their account's wallet (`accountWallet`: the embedded one,
 * else the first linked), as `pending` and due for its first chain check at once, with the Dial user whose
 * account's wallet is the `to` address (if any) as its recipient. Each
 * sender has at most one row per (chain, hash): recording it again returns the row already stored (a
 * retry), unchanged. Other accounts may hold a pending row for the same hash (a false claim is dropped by
 * its check, and does not block the real sender); once the chain has proven one account's row, nobody
 * else can record that hash.
 *
 * @returns The transfer as its sender sees it, and whether this call created it.
 * @throws {DialError} `wallet_not_found` when the sender has no wallet; `not_your_transaction` when the
 *   chain already proved another account's record of this transaction.
 */
export async function recordTransfer(
  db: Kysely<Database>,
  transfer: NewTransfer,
  now: Date,
): Promise<{ item: ActivityItem; created: boolean }> {
  const wallet = await accountWallet(db, transfer.senderUserId);
  if (wallet === null) throw new DialError('wallet_not_found');

  const stored = () =>
    selectTransfers(db)
      .where('transfers.chain_id', '=', transfer.chainId)
      .where('transfers.tx_hash', '=', transfer.txHash)
      .where('transfers.sender_user_id', '=', transfer.senderUserId)
      .executeTakeFirst();
  const existing = await stored();
  if (existing !== undefined) return { item: toItem(existing, transfer.senderUserId), created: false };
  const proven = await db
    .selectFrom('transfers')
    .select('id')
    .where('chain_id', '=', transfer.chainId)
    .where('tx_hash', '=', transfer.txHash)
    .where('status', '<>', 'pending')
    .executeTakeFirst();
  if (proven !== undefined) {
    throw new DialError('not_your_transaction', { details: 'another account proved this transaction' });
  }

  const recipientUserId = await findAccountByWallet(db, transfer.to);

  const id = randomUUID();
  const at = now.toISOString();
  try {
    await db
      .insertInto('transfers')
      .values({
        id,
        sender_user_id: transfer.senderUserId,
        chain_id: transfer.chainId,
        tx_hash: transfer.txHash,
        from_address: wallet.address,
        to_address: transfer.to,
        asset: transfer.asset,
        amount: transfer.amount,
        recipient_user_id: recipientUserId ?? null,
        recipient_phone: transfer.recipientPhone,
        status: 'pending',
        created_at: at,
        updated_at: at,
        next_check_at: at,
        checked_at: null,
        claimed_until: null,
        missing_since: null,
      })
      .execute();
  } catch (error) {
    // The same sender recording the same transaction at the same moment (two tabs, a retry).
    if (!isUniqueViolation(error)) throw error;
    const raced = await stored();
    if (raced === undefined) throw error;
    return { item: toItem(raced, transfer.senderUserId), created: false };
  }
  const row = await selectTransfers(db).where('transfers.id', '=', id).executeTakeFirstOrThrow();
  return { item: toItem(row, transfer.senderUserId), created: true };
}

/**
 * One transfer as its sender sees it.
 *
 * @throws {DialError} `not_found` when there is no such transfer (it may have been dropped) or another user
 *   sent it.
 */
export async function loadSentTransfer(
  db: Kysely<Database>,
  id: string,
  senderUserId: string,
): Promise<ActivityItem> {
  const row = await selectTransfers(db)
    .where('transfers.id', '=', id)
    .where('transfers.sender_user_id', '=', senderUserId)
    .executeTakeFirst();
  if (row === undefined) throw new DialError('not_found');
  return toItem(row, senderUserId);
}
