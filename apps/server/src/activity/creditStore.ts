import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CreditSource, Database, TransferAsset, TransferStatus } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { publishWalletEvent } from '../events/walletEvents.js';

/** What recording a credit needs: the database and the clock (the app's context has both). */
export interface CreditDeps {
  db: Kysely<Database>;
  now: () => Date;
}

/**
 * Money that reached an account's wallet other than by a Dial send, as the server read it on the chain or
 * sent it itself (never as a client said).
 */
export interface NewCredit {
  userId: string;
  /** The account's wallet it reached, EIP-55. */
  wallet: string;
  chainId: number;
  /** Lower-case; `null` for a balance change. */
  txHash: string | null;
  /**
   * The USDC `Transfer` log's index in its block; `null` for a transaction's own value, a balance change,
   * or a USDC credit whose log the server has not read yet (it takes the watcher's row's key once found).
   */
  logIndex: number | null;
  source: CreditSource;
  asset: TransferAsset;
  /** Base units, a decimal string without leading zeros. */
  amount: string;
  /** EIP-55; `null` for a balance change. */
  from: string | null;
  blockNumber: bigint | null;
  status: TransferStatus;
  /** The on-ramp session's token hash, for an on-ramp credit. */
  onrampSession?: string | null;
}

/** What {@link recordCredit} did: a row added, a pending one settled, or nothing new (`null`). */
export type CreditChange = { id: string; change: 'added' | 'settled' | null };

/**
 * The credit's `dedupe_key`, the same for every finder of the same money: `<chain>:<hash>:<log index or -1>:
 * <wallet>`, or `<chain>:balance:<wallet>:<block>`. A USDC credit recorded before its log was read has a key
 * of its own (`…:usdc:<wallet>`) until the watcher finds the log.
 */
export function creditKey(credit: NewCredit): string {
  const wallet = credit.wallet.toLowerCase();
  if (credit.txHash === null) return `${credit.chainId}:balance:${wallet}:${credit.blockNumber ?? ''}`;
  const hash = credit.txHash.toLowerCase();
  if (credit.asset === 'usdc' && credit.logIndex === null) return `${credit.chainId}:${hash}:usdc:${wallet}`;
  return `${credit.chainId}:${hash}:${credit.logIndex ?? -1}:${wallet}`;
}

/** The sources a server-sent credit has; the watcher finding the same money later does not relabel it. */
const SENT_BY_SERVER: readonly CreditSource[] = ['faucet', 'onramp'];

/**
 * Records a credit once, however many servers, watchers or routes find it (`dedupe_key`), and publishes the
 * change to the user's wallet stream (`activity`, `received`):
 * - new: inserted (`added`);
 * - found again: a `pending` row becomes final (`settled`) when this finder read it final; the faucet or the
 *   on-ramp recording money the watcher found first relabels the row with its source;
 * - a USDC log the watcher found whose transaction the faucet or on-ramp recorded before it read the log
 *   (`logIndex` `null`): that row takes the log's key and is settled, rather than a second row added.
 *
 * A credit whose transaction is also a proven Dial transfer to the same user is stored but not announced: the
 * history lists it once, as the transfer (`activityList.ts`).
 */
export async function recordCredit(deps: CreditDeps, credit: NewCredit): Promise<CreditChange> {
  const { db } = deps;
  const at = deps.now().toISOString();
  const key = creditKey(credit);
  const final = credit.status !== 'pending';
  const blockNumber = credit.blockNumber === null ? null : Number(credit.blockNumber);

  if (credit.asset === 'usdc' && credit.logIndex !== null && credit.txHash !== null) {
    const unread = await db
      .selectFrom('wallet_credits')
      .select(['id', 'status'])
      .where('chain_id', '=', credit.chainId)
      .where('tx_hash', '=', credit.txHash)
      .where('user_id', '=', credit.userId)
      .where('asset', '=', 'usdc')
      .where('log_index', 'is', null)
      .executeTakeFirst();
    if (unread !== undefined) {
      const adopted = await db
        .updateTable('wallet_credits')
        .set({
          log_index: credit.logIndex,
          dedupe_key: key,
          block_number: blockNumber,
          from_address: credit.from,
          ...(final ? { status: credit.status } : {}),
          updated_at: at,
        })
        .where('id', '=', unread.id)
        .where('log_index', 'is', null)
        .executeTakeFirst()
        .catch((error: unknown) => {
          // Another finder already gave a row this log's key: that row is the credit.
          if (isUniqueViolation(error)) return { numUpdatedRows: 0n };
          throw error;
        });
      if (adopted.numUpdatedRows > 0n) {
        const settled = unread.status === 'pending' && final;
        return announce(deps, credit, unread.id, settled ? 'settled' : null);
      }
    }
  }

  const id = randomUUID();
  const inserted = await db
    .insertInto('wallet_credits')
    .values({
      id,
      user_id: credit.userId,
      wallet_address: credit.wallet,
      chain_id: credit.chainId,
      tx_hash: credit.txHash,
      log_index: credit.logIndex,
      dedupe_key: key,
      source: credit.source,
      asset: credit.asset,
      amount: credit.amount,
      from_address: credit.from,
      block_number: blockNumber,
      status: credit.status,
      onramp_session: credit.onrampSession ?? null,
      created_at: at,
      updated_at: at,
    })
    .onConflict((conflict) => conflict.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted !== undefined) return announce(deps, credit, id, 'added');

  const existing = await db
    .selectFrom('wallet_credits')
    .select(['id', 'status', 'source'])
    .where('dedupe_key', '=', key)
    .executeTakeFirstOrThrow();
  if (SENT_BY_SERVER.includes(credit.source) && !SENT_BY_SERVER.includes(existing.source)) {
    await db
      .updateTable('wallet_credits')
      .set({ source: credit.source, onramp_session: credit.onrampSession ?? null, updated_at: at })
      .where('id', '=', existing.id)
      .execute();
  }
  if (existing.status === 'pending' && final) {
    const settled = await db
      .updateTable('wallet_credits')
      .set({ status: credit.status, block_number: blockNumber, updated_at: at })
      .where('id', '=', existing.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (settled.numUpdatedRows > 0n) return announce(deps, credit, existing.id, 'settled');
  }
  return { id: existing.id, change: null };
}

/**
 * Settles a pending credit from what the server read of its transaction's receipt.
 *
 * @returns whether it was pending and now is not.
 */
export async function settleCredit(
  deps: CreditDeps,
  id: string,
  outcome: { status: 'confirmed' | 'failed'; blockNumber: bigint },
): Promise<boolean> {
  const row = await deps.db
    .selectFrom('wallet_credits')
    .select(['user_id', 'chain_id', 'tx_hash'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return false;
  const settled = await deps.db
    .updateTable('wallet_credits')
    .set({
      status: outcome.status,
      block_number: Number(outcome.blockNumber),
      updated_at: deps.now().toISOString(),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (settled.numUpdatedRows === 0n) return false;
  await publishWalletEvent(deps, row.user_id, {
    kind: 'activity',
    entryId: id,
    chainId: Number(row.chain_id),
    change: 'settled',
    direction: 'received',
  });
  return true;
}

async function announce(
  deps: CreditDeps,
  credit: NewCredit,
  id: string,
  change: 'added' | 'settled' | null,
): Promise<CreditChange> {
  if (change === null) return { id, change };
  if (credit.txHash !== null) {
    const dial = await deps.db
      .selectFrom('transfers')
      .select('id')
      .where('chain_id', '=', credit.chainId)
      .where('tx_hash', '=', credit.txHash)
      .where('recipient_user_id', '=', credit.userId)
      .where('status', '<>', 'pending')
      .executeTakeFirst();
    // Listed as the Dial transfer, which announces itself when it settles.
    if (dial !== undefined) return { id, change };
  }
  await publishWalletEvent(deps, credit.userId, {
    kind: 'activity',
    entryId: id,
    chainId: credit.chainId,
    change,
    direction: 'received',
  });
  return { id, change };
}
