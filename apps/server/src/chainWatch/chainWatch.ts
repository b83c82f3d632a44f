import { LOCAL_CHAIN_ID, MINUTE_MS } from '@dial/core';
import type { PublicClient } from 'viem';
import { type NewCredit, recordCredit, settleCredit } from '../activity/creditStore.js';
import { ChainReadError, shortMessage } from '../chain/chainReader.js';
import {
  type ChainMoney,
  readNativeTransfers,
  readOutcome,
  readUsdcTransfers,
} from '../chain/readChainMoney.js';
import { accountsByWallet } from './accountsByWallet.js';
import { recordBalanceChanges } from './balanceChanges.js';
import type { ChainWatchDeps } from './chainWatchDeps.js';
import type { WatchedChain } from './watchedChains.js';

/**
 * The chain watcher's schedule, kept in `chain_watch` (one row per chain): `next_block` is the first block
 * not read yet; `claimed_until` a server reading the range after it. Any server runs a tick; the claim is a
 * conditional UPDATE on (`next_block`, `claimed_until`), so two servers never read the same range at once, and
 * a range is read again only when the server that claimed it died (its claim runs out): then the credits'
 * `dedupe_key` keeps each one a single row.
 */
export const CHAIN_WATCH = Object.freeze({
  /** The most blocks one tick reads in `blocks` mode (one RPC call each). */
  maxBlocksByBlock: 50,
  /** The most blocks one `eth_getLogs` covers in `logs` mode (providers cap the range, often at 500 to 10,000). */
  maxBlocksByLogs: 500,
  /** How long a claim lasts: longer than a tick's reads can take. */
  claimMs: MINUTE_MS,
  /** The most pending credits a tick reads the receipt of. */
  pendingPerTick: 10,
});

/**
 * What one tick on one chain did: `read` the blocks `from`…`to` and recorded `credits` new or settled
 * entries; `skipped` (another server holds the claim, or no new block); `failed` (the chain could not be read:
 * the range is read again at the next tick).
 */
export type WatchOutcome =
  | { status: 'read'; from: bigint; to: bigint; credits: number }
  | { status: 'skipped' }
  | { status: 'failed'; reason: string };

/**
 * One tick on one chain: starts its cursor at the chain's latest block the first time (a new chain is not read
 * from block 0), claims the next range, reads the USDC `Transfer` logs in it (and, in `blocks` mode, every
 * block's transactions for native value), records a credit for each that reached an account's wallet, and,
 * in `logs` mode, a balance change where a watched wallet's balance rose by more than its known entries
 * explain. Then moves the cursor past the range. Also reads the receipts of a few pending credits (money the
 * server sent whose receipt it could not read then).
 */
export async function watchChain(deps: ChainWatchDeps, watched: WatchedChain): Promise<WatchOutcome> {
  const { db, now } = deps;
  const { chainId, mode } = watched;
  let client: PublicClient;
  let head: bigint;
  try {
    client = deps.client(chainId);
    const [actualChainId, latest] = await Promise.all([
      client.getChainId(),
      client.getBlockNumber({ cacheTime: 0 }),
    ]);
    if (actualChainId !== chainId)
      throw new ChainReadError(`the RPC of chain ${chainId} serves chain ${actualChainId}`);
    head = latest;
  } catch (error) {
    return { status: 'failed', reason: reasonOf(error) };
  }

  await settlePending(deps, chainId, client).catch(() => undefined);

  const at = now().toISOString();
  await db
    .insertInto('chain_watch')
    .values({ chain_id: chainId, next_block: Number(head), claimed_until: null, updated_at: at })
    .onConflict((conflict) => conflict.column('chain_id').doNothing())
    .execute();
  const cursor = await db
    .selectFrom('chain_watch')
    .select(['next_block', 'claimed_until'])
    .where('chain_id', '=', chainId)
    .executeTakeFirstOrThrow();
  const from = BigInt(cursor.next_block);
  if (from > head + 1n && chainId === LOCAL_CHAIN_ID) {
    // The local chain started afresh under a database that remembers the old one: watch from its head.
    await db
      .updateTable('chain_watch')
      .set({ next_block: Number(head), updated_at: at })
      .where('chain_id', '=', chainId)
      .where('next_block', '=', Number(from))
      .execute();
    return { status: 'skipped' };
  }
  if (from > head) return { status: 'skipped' };
  const span = BigInt(mode === 'blocks' ? CHAIN_WATCH.maxBlocksByBlock : CHAIN_WATCH.maxBlocksByLogs);
  const to = head < from + span - 1n ? head : from + span - 1n;

  const claimedUntil = new Date(now().getTime() + CHAIN_WATCH.claimMs).toISOString();
  const claim = await db
    .updateTable('chain_watch')
    .set({ claimed_until: claimedUntil, updated_at: at })
    .where('chain_id', '=', chainId)
    .where('next_block', '=', Number(from))
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .executeTakeFirst();
  if (claim.numUpdatedRows === 0n) return { status: 'skipped' };

  let credits = 0;
  try {
    const usdc = deps.usdcAddress(chainId);
    const money = [
      ...(usdc === undefined ? [] : await readUsdcTransfers(client, usdc, from, to)),
      ...(mode === 'blocks' ? await readNativeTransfers(client, from, to) : []),
    ];
    const accounts = await accountsByWallet(
      db,
      money.map((item) => item.to),
    );
    for (const item of money) {
      const account = accounts.get(item.to.toLowerCase());
      if (account === undefined) continue;
      // A transaction's value moved only if it succeeded; a reverted one is no credit.
      const outcome = item.asset === 'native' ? await readOutcome(client, item.txHash) : item;
      if (outcome === null || outcome.status !== 'confirmed') continue;
      const recorded = await recordCredit(deps, creditOf(chainId, account, item));
      if (recorded.change !== null) credits += 1;
    }
    if (mode === 'logs') credits += await recordBalanceChanges(deps, client, chainId, from, to);
  } catch (error) {
    // Nothing moves: the range is read again (the keys keep what was recorded single).
    await db
      .updateTable('chain_watch')
      .set({ claimed_until: null })
      .where('chain_id', '=', chainId)
      .where('claimed_until', '=', claimedUntil)
      .execute();
    return { status: 'failed', reason: reasonOf(error) };
  }
  await db
    .updateTable('chain_watch')
    .set({ next_block: Number(to + 1n), claimed_until: null, updated_at: now().toISOString() })
    .where('chain_id', '=', chainId)
    .where('claimed_until', '=', claimedUntil)
    .execute();
  return { status: 'read', from, to, credits };
}

/** One tick on every watched chain, one after the other. */
export async function watchChains(
  deps: ChainWatchDeps,
  chains: readonly WatchedChain[],
): Promise<Map<number, WatchOutcome>> {
  const outcomes = new Map<number, WatchOutcome>();
  for (const chain of chains) outcomes.set(chain.chainId, await watchChain(deps, chain));
  return outcomes;
}

function creditOf(
  chainId: number,
  account: { userId: string; wallet: string },
  money: ChainMoney,
): NewCredit {
  return {
    userId: account.userId,
    wallet: account.wallet,
    chainId,
    txHash: money.txHash,
    logIndex: money.logIndex,
    source: 'outside',
    asset: money.asset,
    amount: money.value.toString(),
    from: money.from,
    blockNumber: money.blockNumber,
    status: 'confirmed',
  };
}

/** Reads the receipts of a few pending credits on `chainId` (money the server sent) and settles them. */
async function settlePending(deps: ChainWatchDeps, chainId: number, client: PublicClient): Promise<void> {
  const pending = await deps.db
    .selectFrom('wallet_credits')
    .select(['id', 'tx_hash'])
    .where('status', '=', 'pending')
    .where('chain_id', '=', chainId)
    .where('tx_hash', 'is not', null)
    .orderBy('created_at')
    .limit(CHAIN_WATCH.pendingPerTick)
    .execute();
  for (const { id, tx_hash } of pending) {
    const outcome = await readOutcome(client, tx_hash as `0x${string}`);
    if (outcome !== null) await settleCredit(deps, id, outcome);
  }
}

function reasonOf(error: unknown): string {
  // Not the error itself: viem's messages carry the RPC URL, which may hold an API key.
  return error instanceof ChainReadError ? error.message : shortMessage(error);
}
