import { maskIdentifier } from '@dial/core';
import { type Compilable, type Kysely, type Selectable, sql } from 'kysely';
import type { Hex } from 'viem';
import type {
  CreditSource,
  Database,
  TransferAsset,
  TransferStatus,
  TransfersTable,
} from '../db/database.js';
import { encodeCursor, type PageCursor } from '../db/pageCursor.js';
import { preparedQuery } from '../db/preparedQuery.js';

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

type TransferRow = Selectable<TransfersTable>;

/**
 * An entry of the merged history as the page's query reads it: a Dial transfer's or a credit's columns under
 * the same names, and the other side's number when it is a Dial transfer.
 */
interface PageRow {
  id: string;
  /** Which of the three sources the entry comes from. */
  kind: 'sent' | 'received' | 'credit';
  /** A credit's source; `null` for a Dial transfer. */
  source: CreditSource | null;
  chain_id: number;
  tx_hash: string | null;
  block_number: number | string | null;
  from_address: string | null;
  to_address: string;
  asset: TransferAsset;
  amount: string;
  status: TransferStatus;
  created_at: string;
  /** A transfer's recipient number as its sender typed it. */
  recipient_phone: string | null;
  /** The first phone number of the Dial user on the other side of a transfer. */
  counterparty_phone: string | null;
}

/** Which page: the first or after a cursor, on every chain or on one, and how many entries it reads. */
interface PageShape {
  cursor: boolean;
  chain: boolean;
  /** `limit + 1`, written into the SQL (see {@link PAGE_READS}). */
  reads: number;
}

/**
 * How many entries a page's query may read: `limit + 1` rounded up to one of these, and the page cut to
 * `limit`. The count is part of the SQL, not a parameter: on SQLite a bound LIMIT prepares the statement again
 * at every run (the planner may use its value), which cost more than reading the page. The web app's pages (10
 * and 20 entries), the API's default (50) and its largest (100) read exactly one more.
 */
const PAGE_READS = [11, 21, 51, 101] as const;

/**
 * The page's query for a {@link PageShape}, prepared once: its parameters are the user's id, then the chain's
 * id and the cursor's time and id when the shape has them.
 *
 * Keyset pagination over (created_at, id), in one statement and two steps:
 * - which entries: each source read through its own index (sender, recipient, the credit's user) for `reads`
 *   entries after the cursor, already in order (the sent side from the index alone), the three merged and cut
 *   to `reads`;
 * - their rows: only those entries read from their tables, with the other side's first phone number (kept on
 *   their user's row).
 * No entry is skipped or repeated when many share a millisecond, and what the page reads does not grow with
 * the history.
 */
function pageQuery(shape: PageShape) {
  const reads = sql.lit(shape.reads);
  return preparedQuery((db, userId: string, ...rest: Array<string | number>): Compilable<PageRow> => {
    const [chainId, createdAt, id] = shape.chain ? rest : [undefined, ...rest];
    // Older than the cursor in the order (created_at desc, id desc). The first term alone is a range of the
    // indexes, so a page deep in a long history starts where the cursor is.
    const after = (table: 'transfers' | 'wallet_credits') =>
      sql<boolean>`${sql.ref(`${table}.created_at`)} <= ${createdAt} and (${sql.ref(
        `${table}.created_at`,
      )} < ${createdAt} or ${sql.ref(`${table}.id`)} < ${id})`;
    // Literal, not bound: SQLite uses a partial index (`status <> 'pending'`) only for a statement that says so.
    const pending = sql.lit<TransferStatus>('pending');
    // One side of the user's transfers, newest first.
    const transfers = (side: 'sender_user_id' | 'recipient_user_id', kind: PageRow['kind']) =>
      db
        .selectFrom('transfers')
        .select(['created_at', 'id', sql.lit(kind).as('kind')])
        .where(side, '=', userId)
        .$if(shape.chain, (query) => query.where('chain_id', '=', chainId as number))
        .$if(shape.cursor, (query) => query.where(after('transfers')))
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(reads);
    const sent = transfers('sender_user_id', 'sent');
    const received = transfers('recipient_user_id', 'received')
      .where('sender_user_id', '<>', userId)
      .where('status', '<>', pending);
    const credits = db
      .selectFrom('wallet_credits')
      .select([
        'wallet_credits.created_at',
        'wallet_credits.id',
        sql.lit<PageRow['kind']>('credit').as('kind'),
      ])
      .where('wallet_credits.user_id', '=', userId)
      .$if(shape.chain, (query) => query.where('wallet_credits.chain_id', '=', chainId as number))
      .$if(shape.cursor, (query) => query.where(after('wallet_credits')))
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('transfers')
              .select('transfers.id')
              .whereRef('transfers.chain_id', '=', 'wallet_credits.chain_id')
              .whereRef('transfers.tx_hash', '=', 'wallet_credits.tx_hash')
              .whereRef('transfers.recipient_user_id', '=', 'wallet_credits.user_id')
              .where('transfers.status', '<>', pending),
          ),
        ),
      )
      .orderBy('wallet_credits.created_at', 'desc')
      .orderBy('wallet_credits.id', 'desc')
      .limit(reads);
    const entries = db
      .selectFrom(sent.as('sent'))
      .selectAll()
      .unionAll(db.selectFrom(received.as('received')).selectAll())
      .unionAll(db.selectFrom(credits.as('credits')).selectAll())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(reads);
    return db
      .selectFrom(entries.as('entry'))
      .leftJoin('transfers', (join) =>
        join.on('entry.kind', '<>', sql.lit('credit')).onRef('transfers.id', '=', 'entry.id'),
      )
      .leftJoin('wallet_credits', (join) =>
        join.on('entry.kind', '=', sql.lit('credit')).onRef('wallet_credits.id', '=', 'entry.id'),
      )
      .select((eb) => [
        'entry.id',
        'entry.kind',
        'wallet_credits.source',
        eb.fn.coalesce('transfers.chain_id', 'wallet_credits.chain_id').as('chain_id'),
        eb.fn.coalesce('transfers.tx_hash', 'wallet_credits.tx_hash').as('tx_hash'),
        'wallet_credits.block_number',
        eb.fn.coalesce('transfers.from_address', 'wallet_credits.from_address').as('from_address'),
        eb.fn.coalesce('transfers.to_address', 'wallet_credits.wallet_address').as('to_address'),
        eb.fn.coalesce('transfers.asset', 'wallet_credits.asset').as('asset'),
        eb.fn.coalesce('transfers.amount', 'wallet_credits.amount').as('amount'),
        eb.fn.coalesce('transfers.status', 'wallet_credits.status').as('status'),
        'entry.created_at',
        'transfers.recipient_phone',
        // A look-up by the user's key for each entry of the page: a join here could be planned as a scan of
        // every user.
        eb
          .selectFrom('users')
          .select('users.phone')
          .where(
            'users.id',
            '=',
            sql<string>`case ${sql.ref('entry.kind')} when 'sent' then ${sql.ref('transfers.recipient_user_id')} when 'received' then ${sql.ref('transfers.sender_user_id')} end`,
          )
          .as('counterparty_phone'),
      ])
      .orderBy('entry.created_at', 'desc')
      .orderBy('entry.id', 'desc')
      .$castTo<PageRow>();
  });
}

/** The page queries, by shape: `first` or `after` a cursor, `OnChain` or not, then by {@link PAGE_READS}. */
const pageQueries = {
  first: PAGE_READS.map((reads) => pageQuery({ cursor: false, chain: false, reads })),
  firstOnChain: PAGE_READS.map((reads) => pageQuery({ cursor: false, chain: true, reads })),
  after: PAGE_READS.map((reads) => pageQuery({ cursor: true, chain: false, reads })),
  afterOnChain: PAGE_READS.map((reads) => pageQuery({ cursor: true, chain: true, reads })),
};

/**
 * The user's history, newest first, a page of `limit` entries after `cursor`, on one chain or all:
 * - the Dial transfers they sent (pending ones included: their own claim);
 * - those another Dial user sent to their wallet, once the chain proved them (never a pending one: only
 *   someone's word); a transfer to oneself is listed once, as sent;
 * - their credits (`wallet_credits`): the faucet, the on-ramp, outside transfers, balance changes, all read
 *   by the server on the chain or sent by it; a credit whose transaction is a proven Dial transfer to this
 *   user is listed once, as that transfer.
 *
 * One prepared statement ({@link pageQuery}): its cost does not grow with the history.
 */
export async function listActivity(
  db: Kysely<Database>,
  userId: string,
  options: { limit: number; cursor: PageCursor | undefined; chainId: number | undefined },
): Promise<ActivityListPage> {
  const { limit, cursor, chainId } = options;
  let reads = PAGE_READS.findIndex((count) => count > limit);
  if (reads === -1) reads = PAGE_READS.length - 1;
  let rows: PageRow[] | Promise<PageRow[]>;
  if (cursor === undefined) {
    rows =
      chainId === undefined
        ? pageQueries.first[reads]!.now(db, userId)
        : pageQueries.firstOnChain[reads]!.now(db, userId, chainId);
  } else {
    rows =
      chainId === undefined
        ? pageQueries.after[reads]!.now(db, userId, cursor.createdAt, cursor.id)
        : pageQueries.afterOnChain[reads]!.now(db, userId, chainId, cursor.createdAt, cursor.id);
  }
  const read = await rows;
  const page = read.length > limit ? read.slice(0, limit) : read;
  const last = page[page.length - 1];
  return {
    items: page.map(pageEntry),
    nextCursor:
      read.length > limit && last !== undefined
        ? encodeCursor({ createdAt: last.created_at, id: last.id })
        : null,
  };
}

/**
 * A row of the page as the user sees it: addresses and a masked number, no people's ids. The sender of a Dial
 * transfer sees the number they typed, or else the recipient's; its recipient sees the sender's.
 */
function pageEntry(row: PageRow): ActivityEntry {
  const phone =
    row.kind === 'sent'
      ? (row.recipient_phone ?? row.counterparty_phone)
      : row.kind === 'received'
        ? row.counterparty_phone
        : null;
  return {
    id: row.id,
    source: row.source ?? 'dial',
    direction: row.kind === 'sent' ? 'sent' : 'received',
    chainId: Number(row.chain_id),
    txHash: row.tx_hash as Hex | null,
    blockNumber: row.block_number === null ? null : Number(row.block_number),
    from: row.from_address as Hex | null,
    to: row.to_address as Hex,
    asset: row.asset,
    amount: row.amount,
    status: row.status,
    createdAt: row.created_at,
    counterparty: { phone: phone === null ? null : maskIdentifier(phone) },
  };
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
