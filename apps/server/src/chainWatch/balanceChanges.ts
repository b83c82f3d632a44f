import { DAY_MS } from '@dial/core';
import type { Hex, PublicClient } from 'viem';
import { recordCredit } from '../activity/creditStore.js';
import { accountWallet } from '../auth/accountWallet.js';
import { readOutcome } from '../chain/readChainMoney.js';
import type { ChainWatchDeps } from './chainWatchDeps.js';

/**
 * The balance fallback of `logs` mode, where the RPC cannot list a block's transactions: native value from
 * outside is seen only as a balance that rose. Kept simple and bounded: only the wallets of people active
 * lately (signed in within a day, or with history on this chain within a week), a few per tick.
 */
export const BALANCE_WATCH = Object.freeze({
  /** History on the chain this recent makes a wallet watched. */
  activeHistoryMs: 7 * DAY_MS,
  /** A session seen this recently makes its account's wallet watched. */
  activeSessionMs: DAY_MS,
  /** The most wallets one tick reads the balance of (two calls each). */
  maxWallets: 25,
});

/**
 * For each watched wallet, compares its native balance before block `from` and at block `to`: a rise larger
 * than what the wallet's known entries in those blocks explain (native credits, and Dial transfers received,
 * their blocks read from their receipts) is recorded as a `balance` credit of the difference, seen in block
 * `to`, without a hash or a sender. Money the wallet sent in the range makes the rise smaller, so what is
 * recorded is at most what arrived, never more.
 *
 * @returns how many balance changes were recorded.
 */
export async function recordBalanceChanges(
  deps: ChainWatchDeps,
  client: PublicClient,
  chainId: number,
  from: bigint,
  to: bigint,
): Promise<number> {
  if (from === 0n) return 0;
  const { db } = deps;
  const now = deps.now().getTime();
  const historySince = new Date(now - BALANCE_WATCH.activeHistoryMs).toISOString();
  const sessionSince = new Date(now - BALANCE_WATCH.activeSessionMs).toISOString();
  const limit = BALANCE_WATCH.maxWallets;
  const [sessions, credits, sent, received] = await Promise.all([
    db
      .selectFrom('sessions')
      .select('user_id')
      .where('last_seen_at', '>=', sessionSince)
      .orderBy('last_seen_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('wallet_credits')
      .select('user_id')
      .where('chain_id', '=', chainId)
      .where('created_at', '>=', historySince)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('transfers')
      .select('sender_user_id as user_id')
      .where('chain_id', '=', chainId)
      .where('created_at', '>=', historySince)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
    db
      .selectFrom('transfers')
      .select('recipient_user_id as user_id')
      .where('chain_id', '=', chainId)
      .where('recipient_user_id', 'is not', null)
      .where('created_at', '>=', historySince)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute(),
  ]);
  const userIds = [
    ...new Set([...sessions, ...credits, ...sent, ...received].map((row) => row.user_id as string)),
  ].slice(0, limit);

  let recorded = 0;
  for (const userId of userIds) {
    const wallet = await accountWallet(db, userId);
    if (wallet === null) continue;
    const [before, after] = await Promise.all([
      client.getBalance({ address: wallet.address, blockNumber: from - 1n }),
      client.getBalance({ address: wallet.address, blockNumber: to }),
    ]);
    const rise = after - before;
    if (rise <= 0n) continue;
    const unexplained = rise - (await knownIncoming(deps, client, chainId, userId, from, to));
    if (unexplained <= 0n) continue;
    const credit = await recordCredit(deps, {
      userId,
      wallet: wallet.address,
      chainId,
      txHash: null,
      logIndex: null,
      source: 'balance',
      asset: 'native',
      amount: unexplained.toString(),
      from: null,
      blockNumber: to,
      status: 'confirmed',
    });
    if (credit.change !== null) recorded += 1;
  }
  return recorded;
}

/** The native value the user's known entries brought in blocks `from`…`to`. */
async function knownIncoming(
  deps: ChainWatchDeps,
  client: PublicClient,
  chainId: number,
  userId: string,
  from: bigint,
  to: bigint,
): Promise<bigint> {
  const credits = await deps.db
    .selectFrom('wallet_credits')
    .select('amount')
    .where('user_id', '=', userId)
    .where('chain_id', '=', chainId)
    .where('asset', '=', 'native')
    .where('status', '=', 'confirmed')
    .where('block_number', '>=', Number(from))
    .where('block_number', '<=', Number(to))
    .execute();
  let known = credits.reduce((sum, row) => sum + BigInt(row.amount), 0n);
  // Dial transfers have no block in the database: read the receipts of the recent ones.
  const since = new Date(deps.now().getTime() - BALANCE_WATCH.activeSessionMs).toISOString();
  const transfers = await deps.db
    .selectFrom('transfers')
    .select(['tx_hash', 'amount'])
    .where('recipient_user_id', '=', userId)
    .where('chain_id', '=', chainId)
    .where('asset', '=', 'native')
    .where('status', '=', 'confirmed')
    .where('created_at', '>=', since)
    .execute();
  for (const transfer of transfers) {
    const outcome = await readOutcome(client, transfer.tx_hash as Hex);
    if (outcome !== null && outcome.blockNumber >= from && outcome.blockNumber <= to) {
      known += BigInt(transfer.amount);
    }
  }
  return known;
}
