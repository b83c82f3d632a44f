import { DialError, maskIdentifier } from '@dial/core';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Hex } from 'viem';
import type {
  CreditSource,
  Database,
  TransferAsset,
  TransferStatus,
  TransfersTable,
  WalletCreditsTable,
} from '../db/database.js';

/** One line of a user's history, as `GET /api/activity` shows it: addresses and masked numbers, no people's ids. */
export interface ActivityEntry {
  id: string;
  source: 'dial' | CreditSource;
  /** `sent` by this user (a Dial transfer), else `received`. */
  direction: 'sent' | 'received';
  chainId: number;
  /** Lower-case; `null` for a balance change. */
  txHash: Hex | null;
  /** The block a credit was read (or a balance change seen) in; `null` for a Dial transfer or a pending credit. */
  blockNumber: number | null;
  /** EIP-55; `null` for a balance change. */
  from: Hex | null;
  to: Hex;
  asset: TransferAsset;
  amount: string;
  status: TransferStatus;
  createdAt: string;
  /** A Dial transfer's other side, masked; `null` for every credit. */
  counterparty: { phone: string | null };
}

/** A page of the history, newest first, and the cursor of the next (older) page. */
export interface ActivityListPage {
  items: ActivityEntry[];
  /** Pass as `cursor` for the next page; `null` when there is none. */
  nextCursor: string | null;
}

/** Where a page starts: strictly after (older than) this entry in the order (created_at desc, id desc). */
export interface ActivityCursor {
  createdAt: string;
  id: string;
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const CURSOR_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The cursor a client passes back: opaque to it (base64url of the last entry's time and id). */
export function encodeCursor(cursor: ActivityCursor): string {
  return Buffer.from(`${cursor.createdAt}/${cursor.id}`, 'utf8').toString('base64url');
}

/**
 * Reads a cursor given by {@link encodeCursor}.
 *
 * @throws {DialError} `invalid_data` for anything else.
 */
export function decodeCursor(text: string): ActivityCursor {
  const [createdAt = '', id = '', ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('/');
  if (rest.length > 0 || !CURSOR_TIME.test(createdAt) || !CURSOR_ID.test(id)) {
    throw new DialError('invalid_data', { details: 'not a cursor this server gave' });
  }
  return { createdAt, id };
}

type TransferRow = Selectable<TransfersTable>;
type CreditRow = Selectable<WalletCreditsTable>;
type Row = { kind: 'transfer'; row: TransferRow } | { kind: 'credit'; row: CreditRow };

/**
 * The user's history, newest first, a page of `limit` entries after `cursor`, on one chain or all:
 * - the Dial transfers they sent (pending ones included: their own claim);
 * - those another Dial user sent to their wallet, once the chain proved them (never a pending one: only
 *   someone's word); a transfer to oneself is listed once, as sent;
 * - their credits (`wallet_credits`): the faucet, the on-ramp, outside transfers, balance changes, all read
 *   by the server on the chain or sent by it; a credit whose transaction is a proven Dial transfer to this
 *   user is listed once, as that transfer.
 *
 * Keyset pagination over (created_at, id): each source is read through its own index (sender, recipient,
 * the credit's user) for `limit + 1` rows after the cursor, the three are merged, and the page is cut. No
 * entry is skipped or repeated when many share a millisecond, and the cost does not grow with the history.
 * Phone numbers are looked up for the page's transfers only.
 */
export async function listActivity(
  db: Kysely<Database>,
  userId: string,
  options: { limit: number; cursor: ActivityCursor | undefined; chainId: number | undefined },
): Promise<ActivityListPage> {
  const { limit, cursor, chainId } = options;
  // Older than the cursor in the order (created_at desc, id desc); everything without one.
  const after = (table: 'transfers' | 'wallet_credits') =>
    cursor === undefined
      ? sql<boolean>`1 = 1`
      : sql<boolean>`(${sql.ref(`${table}.created_at`)} < ${cursor.createdAt} or (${sql.ref(
          `${table}.created_at`,
        )} = ${cursor.createdAt} and ${sql.ref(`${table}.id`)} < ${cursor.id}))`;

  const sent = db
    .selectFrom('transfers')
    .selectAll()
    .where('sender_user_id', '=', userId)
    .$if(chainId !== undefined, (query) => query.where('chain_id', '=', chainId!))
    .where(after('transfers'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const received = db
    .selectFrom('transfers')
    .selectAll()
    .where('recipient_user_id', '=', userId)
    .where('sender_user_id', '<>', userId)
    .where('status', '<>', 'pending')
    .$if(chainId !== undefined, (query) => query.where('chain_id', '=', chainId!))
    .where(after('transfers'))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const credits = db
    .selectFrom('wallet_credits')
    .selectAll()
    .where('user_id', '=', userId)
    .$if(chainId !== undefined, (query) => query.where('chain_id', '=', chainId!))
    .where(after('wallet_credits'))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('transfers')
            .select('transfers.id')
            .whereRef('transfers.chain_id', '=', 'wallet_credits.chain_id')
            .whereRef('transfers.tx_hash', '=', 'wallet_credits.tx_hash')
            .whereRef('transfers.recipient_user_id', '=', 'wallet_credits.user_id')
            .where('transfers.status', '<>', 'pending'),
        ),
      ),
    )
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();

  const rows: Row[] = [
    ...(await sent).map((row) => ({ kind: 'transfer' as const, row })),
    ...(await received).map((row) => ({ kind: 'transfer' as const, row })),
    ...(await credits).map((row) => ({ kind: 'credit' as const, row })),
  ];
  // The same order as the queries': ids are lower-case UUIDs, which sort alike in SQL and here.
  rows.sort((a, b) => compareDesc(a.row, b.row));
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const nextCursor =
    rows.length > limit && last !== undefined
      ? encodeCursor({ createdAt: last.row.created_at, id: last.row.id })
      : null;

  const phones = await firstPhones(
    db,
    page.flatMap(({ kind, row }) => {
      if (kind !== 'transfer') return [];
      if (row.sender_user_id !== userId) return [row.sender_user_id];
      return row.recipient_phone === null && row.recipient_user_id !== null ? [row.recipient_user_id] : [];
    }),
  );
  return {
    items: page.map((entry) =>
      entry.kind === 'transfer' ? transferEntry(entry.row, userId, phones) : creditEntry(entry.row),
    ),
    nextCursor,
  };
}

function compareDesc(a: { created_at: string; id: string }, b: { created_at: string; id: string }): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  if (a.id === b.id) return 0;
  return a.id < b.id ? 1 : -1;
}

/** The first phone number of each user (as `GET /api/me` shows it, kept on the user's row), in one query. */
async function firstPhones(db: Kysely<Database>, userIds: string[]): Promise<Map<string, string>> {
  const phones = new Map<string, string>();
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return phones;
  const rows = await db
    .selectFrom('users')
    .select(['id', 'phone'])
    .where('id', 'in', ids)
    .where('phone', 'is not', null)
    .execute();
  for (const row of rows) phones.set(row.id, row.phone!);
  return phones;
}

/**
 * A Dial transfer as `viewerId` sees it. The sender sees the recipient's number they typed, or else the number
 * of the Dial user the address belonged to; the recipient sees the sender's number. Always masked.
 */
export function transferEntry(
  row: TransferRow,
  viewerId: string,
  phones: ReadonlyMap<string, string>,
): ActivityEntry {
  const sent = row.sender_user_id === viewerId;
  const phone = sent
    ? (row.recipient_phone ?? (row.recipient_user_id === null ? null : phones.get(row.recipient_user_id)))
    : phones.get(row.sender_user_id);
  return {
    id: row.id,
    source: 'dial',
    direction: sent ? 'sent' : 'received',
    chainId: Number(row.chain_id),
    txHash: row.tx_hash as Hex,
    blockNumber: null,
    from: row.from_address as Hex,
    to: row.to_address as Hex,
    asset: row.asset,
    amount: row.amount,
    status: row.status,
    createdAt: row.created_at,
    counterparty: { phone: phone === null || phone === undefined ? null : maskIdentifier(phone) },
  };
}

function creditEntry(row: CreditRow): ActivityEntry {
  return {
    id: row.id,
    source: row.source,
    direction: 'received',
    chainId: Number(row.chain_id),
    txHash: row.tx_hash as Hex | null,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    from: row.from_address as Hex | null,
    to: row.wallet_address as Hex,
    asset: row.asset,
    amount: row.amount,
    status: row.status,
    createdAt: row.created_at,
    counterparty: { phone: null },
  };
}
