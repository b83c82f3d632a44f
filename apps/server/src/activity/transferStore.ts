import { randomUUID } from 'node:crypto';
import { DialError, maskIdentifier } from '@dial/core';
import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import type { Hex } from 'viem';
import type { Database, TransferAsset, TransferStatus, TransfersTable } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { accountWallet, findAccountByWallet } from '../wallet/accountWallet.js';

/** One line of a user's activity, as the API shows it: addresses and masked numbers, no ids of people. */
export interface ActivityItem {
  id: string;
  /** `sent` by this user, or `received` from another Dial user. */
  direction: 'sent' | 'received';
  chainId: number;
  /** Lower-case. */
  txHash: Hex;
  /** EIP-55, like `to`. */
  from: Hex;
  to: Hex;
  asset: TransferAsset;
  amount: string;
  status: TransferStatus;
  createdAt: string;
  /** The other side's phone number masked to its last four digits, or `null` when there is none to show. */
  counterparty: { phone: string | null };
}

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

/** The first `phone` identity of the user in `column` (as `GET /api/me` shows it), as a correlated sub-query. */
function phoneOf(
  eb: ExpressionBuilder<Database, 'transfers'>,
  column: 'sender_user_id' | 'recipient_user_id',
) {
  return eb
    .selectFrom('identities')
    .select('identities.value')
    .whereRef('identities.user_id', '=', `transfers.${column}`)
    .where('identities.kind', '=', 'phone')
    .orderBy('identities.created_at')
    .orderBy('identities.value')
    .limit(1);
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

/**
 * A row as `viewerId` sees it. The sender sees the recipient's number they typed, or else the number of the
 * Dial user the address belonged to; the recipient sees the sender's number. Always masked.
 */
function toItem(row: TransferRow, viewerId: string): ActivityItem {
  const sent = row.sender_user_id === viewerId;
  const phone = sent ? (row.recipient_phone ?? row.recipient_user_phone) : row.sender_phone;
  return {
    id: row.id,
    direction: sent ? 'sent' : 'received',
    chainId: Number(row.chain_id),
    txHash: row.tx_hash as Hex,
    from: row.from_address as Hex,
    to: row.to_address as Hex,
    asset: row.asset,
    amount: row.amount,
    status: row.status,
    createdAt: row.created_at,
    counterparty: { phone: phone === null ? null : maskIdentifier(phone) },
  };
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

/** A page of activity, newest first, and the cursor of the next (older) page. */
export interface ActivityPage {
  items: ActivityItem[];
  /** Pass as `before` for the next page; `null` when there is none. */
  nextBefore: string | null;
}

/**
 * The user's activity, newest first: the transfers they sent (pending ones included: their own claim), and
 * those sent to their wallet by another Dial user once the chain proved them (confirmed or failed: a
 * pending one is only someone's word, and is never shown to its recipient). A transfer to oneself is
 * listed once, as sent.
 *
 * Pagination is by `created_at`: a page holds the transfers strictly older than `before`, and `nextBefore`
 * is the oldest one's time. So that no transfer is skipped when several share that millisecond, a full page
 * is extended by the rest of them: it may then hold more than `limit` items.
 */
export async function listActivity(
  db: Kysely<Database>,
  userId: string,
  options: { limit: number; before: string | undefined },
): Promise<ActivityPage> {
  const mine = () => selectTransfers(db).where((eb) => visibleTo(eb, userId));
  let query = mine();
  if (options.before !== undefined) query = query.where('transfers.created_at', '<', options.before);
  const rows = await query
    .orderBy('transfers.created_at', 'desc')
    .orderBy('transfers.id', 'desc')
    .limit(options.limit + 1)
    .execute();
  if (rows.length <= options.limit) {
    return { items: rows.map((row) => toItem(row, userId)), nextBefore: null };
  }
  const page = rows.slice(0, options.limit);
  const last = page[page.length - 1]!;
  const next = rows[options.limit]!;
  if (next.created_at === last.created_at) {
    const tied = await mine()
      .where('transfers.created_at', '=', last.created_at)
      .where('transfers.id', '<', last.id)
      .orderBy('transfers.id', 'desc')
      .execute();
    page.push(...tied);
    const older = await db
      .selectFrom('transfers')
      .select('id')
      .where((eb) => visibleTo(eb, userId))
      .where('transfers.created_at', '<', last.created_at)
      .limit(1)
      .executeTakeFirst();
    if (older === undefined) return { items: page.map((row) => toItem(row, userId)), nextBefore: null };
  }
  return { items: page.map((row) => toItem(row, userId)), nextBefore: last.created_at };
}

/** The rows `userId` may see: the ones they sent, and the chain-proven ones sent to them. */
function visibleTo(eb: ExpressionBuilder<Database, 'transfers'>, userId: string) {
  return eb.or([
    eb('transfers.sender_user_id', '=', userId),
    eb.and([eb('transfers.recipient_user_id', '=', userId), eb('transfers.status', '<>', 'pending')]),
  ]);
}
