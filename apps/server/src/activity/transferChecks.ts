import { DAY_MS, HOUR_MS, MINUTE_MS } from '@dial/core';
import type { Kysely } from 'kysely';
import type { Hex } from 'viem';
import { accountWallet } from '../auth/accountWallet.js';
import { ChainReadError, type ChainReader } from '../chain/chainReader.js';
import type { Database } from '../db/database.js';
import { isUniqueViolation } from '../db/isUniqueViolation.js';
import { publishWalletEvent, type WalletEventDeps } from '../events/walletEvents.js';
import { judgeTransfer, type Verdict } from './judgeTransfer.js';

/**
 * The schedule of chain checks. Everything lives in the `transfers` row (migration 0007), so any server
 * runs any check and a restart loses nothing:
 * - `next_check_at`: when a pending transfer is due (null once final);
 * - `claimed_until`: a server working on it; others leave it alone until then (a server that died mid-check
 *   leaves a claim that simply runs out);
 * - `check_attempts`, `checked_at`: how many checks started, and when the last did;
 * - `missing_since`: since when the RPC has answered that it does not know the transaction.
 */
export const TRANSFER_CHECKS = Object.freeze({
  /** The wait after the first check that settled nothing; doubled after each further one. */
  firstRetryMs: 5_000,
  /** The longest wait between two checks. */
  maxRetryMs: 15 * MINUTE_MS,
  /** How long a claim lasts: longer than a check can take (three RPC calls in parallel, each timed out). */
  claimMs: MINUTE_MS,
  /**
   * How long the RPC must keep answering "no such transaction" before the record is dropped. Not shorter:
   * a transaction can take a while to reach the node the server asks.
   */
  missingDropMs: HOUR_MS,
  /**
   * Only a record younger than this is dropped for being missing. An older one (recorded before the server
   * checked the chain, or long ago) may be missing only because the node prunes its transaction index
   * (geth keeps about 2.35 million blocks by default): it stays pending, unseen by its recipient, and is
   * checked at the longest interval, rather than deleted on the node's word.
   */
  missingDropMaxAgeMs: DAY_MS,
  /** The most transfers one tick of one server checks. */
  perTick: 20,
});

/** The wait before the next check after `attempts` checks: 5 s, 10 s, 20 s, … up to 15 minutes. */
export function retryDelayMs(attempts: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 30);
  return Math.min(TRANSFER_CHECKS.firstRetryMs * 2 ** exponent, TRANSFER_CHECKS.maxRetryMs);
}

/** What a check needs: the database, the chains, the clock (and the live streams). The app's context has them. */
export interface TransferCheckDeps extends WalletEventDeps {
  db: Kysely<Database>;
  chain: ChainReader;
  now: () => Date;
}

/**
 * How a check ended:
 * - `confirmed`, `failed`: final, from the receipt;
 * - `pending`: not settled (not mined yet, not found yet, or the chain could not be read: `chainError`);
 *   scheduled again;
 * - `dropped`: the chain contradicts the record (`not_sender`, `mismatch`) or never showed it
 *   (`missing`); the row is deleted;
 * - `skipped`: not checked now: not pending, not due, claimed by another check, or gone.
 */
export type CheckOutcome =
  | { status: 'confirmed' | 'failed' | 'skipped' }
  /** `chainError`: why the chain could not be read, when that is why it is still pending. */
  | { status: 'pending'; chainError?: string }
  | { status: 'dropped'; reason: 'not_sender' | 'mismatch' | 'missing'; details: string };

/**
 * Checks one transfer on its chain, if it can be claimed: `due` when its `next_check_at` has come (the
 * schedule, and the check right after recording), `hint` whenever it is pending and unclaimed (a client
 * asked; the route limits how often). The claim is one conditional UPDATE, so two servers never work the
 * same row at once. What the chain shows then decides: the status from the receipt, another wait (with
 * exponential backoff), or the row deleted. A check that throws (the database failed) leaves its claim to
 * run out, after which the row is due again.
 */
export async function checkTransfer(
  deps: TransferCheckDeps,
  id: string,
  trigger: 'due' | 'hint',
): Promise<CheckOutcome> {
  const { db, chain } = deps;
  const claimedAt = deps.now();
  const at = claimedAt.toISOString();
  // Every write below is conditional on this claim still being ours: a check that outlived its claim
  // (a stalled process) must not overwrite what the server that claimed the row next decided.
  const claimedUntil = new Date(claimedAt.getTime() + TRANSFER_CHECKS.claimMs).toISOString();
  const mine = { id, claimedUntil };
  const claim = await db
    .updateTable('transfers')
    .set((eb) => ({
      claimed_until: claimedUntil,
      checked_at: at,
      check_attempts: eb('check_attempts', '+', 1),
    }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    // A hint (limited per user by the route) may run a check before it is due.
    .$if(trigger === 'due', (query) => query.where('next_check_at', '<=', at))
    .executeTakeFirst();
  if (claim.numUpdatedRows === 0n) return { status: 'skipped' };

  const row = await db
    .selectFrom('transfers')
    .select([
      'transfers.sender_user_id',
      'transfers.recipient_user_id',
      'transfers.chain_id',
      'transfers.tx_hash',
      'transfers.from_address',
      'transfers.to_address',
      'transfers.asset',
      'transfers.amount',
      'transfers.check_attempts',
      'transfers.missing_since',
      'transfers.created_at',
    ])
    .where('transfers.id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return { status: 'skipped' };
  const attempts = Number(row.check_attempts);

  // The sender's account wallet as it is now (`accountWallet`): a wallet moved out of the registry (a
  // disputed address) or unlinked proves nothing any more.
  const wallet = await accountWallet(db, row.sender_user_id);
  if (wallet === null || wallet.address.toLowerCase() !== row.from_address.toLowerCase()) {
    return drop(deps, mine, 'not_sender', 'the sender has no wallet at that address');
  }

  let verdict: Verdict;
  try {
    const evidence = await chain.readTransaction(Number(row.chain_id), row.tx_hash as Hex);
    verdict = judgeTransfer(
      {
        txHash: row.tx_hash,
        from: wallet.address,
        to: row.to_address,
        asset: row.asset,
        amount: row.amount,
      },
      evidence,
      chain.usdcAddress(Number(row.chain_id)),
    );
  } catch (error) {
    if (!(error instanceof ChainReadError)) throw error;
    // Nothing is known: try again later; an RPC that fails never gets a record dropped.
    await reschedule(deps, mine, attempts);
    return { status: 'pending', chainError: error.message };
  }

  switch (verdict.kind) {
    case 'confirmed':
    case 'failed':
      return settle(deps, mine, verdict.kind, row);
    case 'pending':
      await reschedule(deps, mine, attempts, null);
      return { status: 'pending' };
    case 'missing': {
      const now = deps.now();
      const since = row.missing_since ?? now.toISOString();
      const young = now.getTime() - Date.parse(row.created_at) < TRANSFER_CHECKS.missingDropMaxAgeMs;
      if (young && now.getTime() - Date.parse(since) >= TRANSFER_CHECKS.missingDropMs) {
        return drop(deps, mine, 'missing', `not on chain ${row.chain_id} since ${since}`);
      }
      await reschedule(deps, mine, young ? attempts : Number.MAX_SAFE_INTEGER, since);
      return { status: 'pending' };
    }
    case 'not_sender':
      return drop(deps, mine, 'not_sender', 'the transaction was sent from another wallet');
    case 'mismatch':
      return drop(deps, mine, 'mismatch', verdict.reason);
  }
}

/**
 * Checks the transfers that are due, oldest due first, at most `limit` of them (one tick of the schedule).
 * Each is claimed on its own, so servers running this at the same time share the work.
 *
 * @returns How each check ended, by transfer id.
 */
export async function runDueTransferChecks(
  deps: TransferCheckDeps,
  limit: number = TRANSFER_CHECKS.perTick,
): Promise<Map<string, CheckOutcome>> {
  const at = deps.now().toISOString();
  const due = await deps.db
    .selectFrom('transfers')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_check_at', '<=', at)
    .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<=', at)]))
    .orderBy('next_check_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  const outcomes = new Map<string, CheckOutcome>();
  // One at a time: a tick is bounded by `limit` reads, and a slow RPC slows this server's tick only.
  for (const { id } of due) outcomes.set(id, await checkTransfer(deps, id, 'due'));
  return outcomes;
}

/** A row this server claimed: its id and the `claimed_until` it wrote. */
interface Claimed {
  id: string;
  claimedUntil: string;
}

async function settle(
  deps: TransferCheckDeps,
  claimed: Claimed,
  status: 'confirmed' | 'failed',
  sides: { sender_user_id: string; recipient_user_id: string | null; chain_id: number | string },
): Promise<CheckOutcome> {
  let settled: { numUpdatedRows: bigint };
  try {
    settled = await deps.db
      .updateTable('transfers')
      .set({
        status,
        next_check_at: null,
        claimed_until: null,
        missing_since: null,
        updated_at: deps.now().toISOString(),
      })
      .where('id', '=', claimed.id)
      .where('status', '=', 'pending')
      .where('claimed_until', '=', claimed.claimedUntil)
      .executeTakeFirst();
  } catch (error) {
    // At most one row per transaction is ever settled (a partial unique index): another account's row for
    // this hash already is, so this one is not the sender's. Only reachable through two accounts with one
    // wallet address, which the wallet registry no longer allows.
    if (!isUniqueViolation(error)) throw error;
    return drop(deps, claimed, 'not_sender', 'another account already proved this transaction');
  }
  if (settled.numUpdatedRows > 0n) {
    // Both sides' live streams (a transfer to oneself is listed once, as sent).
    const event = {
      kind: 'activity',
      entryId: claimed.id,
      chainId: Number(sides.chain_id),
      change: 'settled',
    } as const;
    await publishWalletEvent(deps, sides.sender_user_id, { ...event, direction: 'sent' });
    if (sides.recipient_user_id !== null && sides.recipient_user_id !== sides.sender_user_id) {
      await publishWalletEvent(deps, sides.recipient_user_id, { ...event, direction: 'received' });
    }
  }
  return { status };
}

async function reschedule(
  deps: TransferCheckDeps,
  claimed: Claimed,
  attempts: number,
  /** `undefined`: leave `missing_since` as it is. */
  missingSince?: string | null,
): Promise<void> {
  const now = deps.now();
  await deps.db
    .updateTable('transfers')
    .set({
      next_check_at: new Date(now.getTime() + retryDelayMs(attempts)).toISOString(),
      claimed_until: null,
      ...(missingSince === undefined ? {} : { missing_since: missingSince }),
    })
    .where('id', '=', claimed.id)
    .where('status', '=', 'pending')
    .where('claimed_until', '=', claimed.claimedUntil)
    .execute();
}

async function drop(
  deps: TransferCheckDeps,
  claimed: Claimed,
  reason: 'not_sender' | 'mismatch' | 'missing',
  details: string,
): Promise<CheckOutcome> {
  // Only ever a pending row: a settled transfer was proven by the chain and stays.
  await deps.db
    .deleteFrom('transfers')
    .where('id', '=', claimed.id)
    .where('status', '=', 'pending')
    .where('claimed_until', '=', claimed.claimedUntil)
    .execute();
  return { status: 'dropped', reason, details };
}
