import { randomUUID } from 'node:crypto';
import { DialError } from '@dial/core';
import type { Kysely, Transaction } from 'kysely';
import type { Database, SponsorUsageTable } from '../db/database.js';
import { dialectOf } from '../db/dialectOf.js';

/** The UTC day of `at`, `YYYY-MM-DD`: the day a sponsorship counts in. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The limits a sponsorship is held to: the account's per UTC day, and the chain's cap in wei. */
export interface SponsorLimits {
  accountDailyLimit: number;
  dailyCapWei: bigint;
}

/** One sponsorship to record: see {@link reserveSponsorship}. */
export interface SponsorshipInput {
  userId: string;
  chainId: number;
  sender: string;
  nonce: bigint;
  userOpHash: string;
  paymaster: string;
  maxCostWei: bigint;
}

/** What the account and the chain have used on a day. */
export interface SponsorUsage {
  accountCount: number;
  chainCostWei: bigint;
}

/**
 * What the account and the chain have used on `day` (nothing for a day without sponsorships). Only for
 * answering questions (the fee options, a stub's early refusal): the binding check is
 * {@link reserveSponsorship}'s, under its locks.
 */
export async function readUsage(
  db: Kysely<Database>,
  userId: string,
  chainId: number,
  day: string,
): Promise<SponsorUsage> {
  const rows = await db
    .selectFrom('sponsor_usage')
    .select(['kind', 'count', 'cost_wei'])
    .where('day', '=', day)
    .where((eb) =>
      eb.or([
        eb.and([eb('kind', '=', 'account'), eb('subject', '=', userId)]),
        eb.and([eb('kind', '=', 'chain'), eb('subject', '=', String(chainId))]),
      ]),
    )
    .execute();
  const account = rows.find((row) => row.kind === 'account');
  const chain = rows.find((row) => row.kind === 'chain');
  return { accountCount: account?.count ?? 0, chainCostWei: BigInt(chain?.cost_wei ?? '0') };
}

/**
 * Refuses, with the catalogue's code, a sponsorship of `maxCostWei` more that `usage` leaves no room for:
 * `sponsor_account_limit` when the account has had its sends today, `sponsor_daily_cap` when the chain's cap
 * would be passed.
 */
export function checkRoom(usage: SponsorUsage, limits: SponsorLimits, maxCostWei: bigint): void {
  if (usage.accountCount >= limits.accountDailyLimit) throw new DialError('sponsor_account_limit');
  if (usage.chainCostWei + maxCostWei > limits.dailyCapWei) throw new DialError('sponsor_daily_cap');
}

/**
 * Records a sponsorship and counts it against the account's daily limit and the chain's daily cap, or
 * refuses it (`sponsor_account_limit`, `sponsor_daily_cap`) and records nothing. One transaction: the two
 * usage rows of the day are created if missing and locked (PostgreSQL: `for update`, in a fixed order;
 * SQLite: the transaction's write lock, taken by its first statement), then read, checked and written, so
 * that any number of requests on any number of servers never let more through than the limits.
 *
 * The same operation asked again (same chain, sender and nonce: only one operation with that nonce can ever
 * run) is not counted again: its row is replaced (hash, max cost), and only a rise of its max cost is added
 * to the chain's day.
 */
export async function reserveSponsorship(
  db: Kysely<Database>,
  input: SponsorshipInput,
  limits: SponsorLimits,
  now: Date,
): Promise<void> {
  const day = utcDay(now);
  await db.transaction().execute(async (trx) => {
    const keys: Array<Pick<SponsorUsageTable, 'kind' | 'subject'>> = [
      { kind: 'account', subject: input.userId },
      { kind: 'chain', subject: String(input.chainId) },
    ];
    for (const key of keys) {
      await trx
        .insertInto('sponsor_usage')
        .values({ ...key, day, count: 0, cost_wei: '0' })
        .onConflict((conflict) => conflict.columns(['kind', 'subject', 'day']).doNothing())
        .execute();
    }
    const account = await lockUsage(trx, 'account', input.userId, day);
    const chain = await lockUsage(trx, 'chain', String(input.chainId), day);

    const existing = await trx
      .selectFrom('sponsorships')
      .select(['id', 'user_id', 'max_cost_wei', 'day'])
      .where('chain_id', '=', input.chainId)
      .where('sender', '=', input.sender)
      .where('nonce', '=', input.nonce.toString())
      .executeTakeFirst();
    if (existing !== undefined && existing.user_id !== input.userId) {
      throw new DialError('sponsor_not_allowed', {
        details: 'the operation was sponsored for another account',
      });
    }
    const again = existing !== undefined && existing.day === day;
    const addedCost = again ? max(0n, input.maxCostWei - BigInt(existing.max_cost_wei)) : input.maxCostWei;
    checkRoom(
      { accountCount: again ? 0 : account.count, chainCostWei: BigInt(chain.cost_wei) },
      limits,
      addedCost,
    );

    if (existing !== undefined) {
      await trx.deleteFrom('sponsorships').where('id', '=', existing.id).execute();
    }
    await trx
      .insertInto('sponsorships')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        chain_id: input.chainId,
        sender: input.sender,
        nonce: input.nonce.toString(),
        user_op_hash: input.userOpHash.toLowerCase(),
        paymaster: input.paymaster,
        max_cost_wei: input.maxCostWei.toString(),
        day,
        created_at: now.toISOString(),
        actual_cost_wei: null,
        tx_hash: null,
      })
      .execute();
    await trx
      .updateTable('sponsor_usage')
      .set({ count: account.count + (again ? 0 : 1) })
      .where('kind', '=', 'account')
      .where('subject', '=', input.userId)
      .where('day', '=', day)
      .execute();
    await trx
      .updateTable('sponsor_usage')
      .set({ cost_wei: (BigInt(chain.cost_wei) + addedCost).toString() })
      .where('kind', '=', 'chain')
      .where('subject', '=', String(input.chainId))
      .where('day', '=', day)
      .execute();
  });
}

/** The day's usage row, locked until the transaction ends (PostgreSQL; SQLite's transaction holds the file). */
async function lockUsage(
  trx: Transaction<Database>,
  kind: SponsorUsageTable['kind'],
  subject: string,
  day: string,
): Promise<{ count: number; cost_wei: string }> {
  let query = trx
    .selectFrom('sponsor_usage')
    .select(['count', 'cost_wei'])
    .where('kind', '=', kind)
    .where('subject', '=', subject)
    .where('day', '=', day);
  if (dialectOf(trx) === 'postgres') query = query.forUpdate();
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), cost_wei: row.cost_wei };
}

function max(a: bigint, b: bigint): bigint {
  return a > b ? a : b;
}

/** A sponsorship as the report reads it. */
export interface SponsorshipRow {
  id: string;
  userId: string;
  chainId: number;
  userOpHash: string;
  maxCostWei: bigint;
  day: string;
  actualCostWei: bigint | null;
  txHash: string | null;
}

/** The sponsorships of the UTC days from `fromDay` on, oldest first. */
export async function listSponsorships(db: Kysely<Database>, fromDay: string): Promise<SponsorshipRow[]> {
  const rows = await db
    .selectFrom('sponsorships')
    .selectAll()
    .where('day', '>=', fromDay)
    .orderBy('day')
    .orderBy('chain_id')
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    chainId: Number(row.chain_id),
    userOpHash: row.user_op_hash,
    maxCostWei: BigInt(row.max_cost_wei),
    day: row.day,
    actualCostWei: row.actual_cost_wei === null ? null : BigInt(row.actual_cost_wei),
    txHash: row.tx_hash,
  }));
}

/** Up to `limit` sponsorships of the UTC days from `fromDay` on whose actual cost is not read yet, oldest first. */
export async function listUnsettledSponsorships(
  db: Kysely<Database>,
  fromDay: string,
  limit: number,
): Promise<SponsorshipRow[]> {
  const rows = await db
    .selectFrom('sponsorships')
    .selectAll()
    .where('day', '>=', fromDay)
    .where('tx_hash', 'is', null)
    .orderBy('created_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    chainId: Number(row.chain_id),
    userOpHash: row.user_op_hash,
    maxCostWei: BigInt(row.max_cost_wei),
    day: row.day,
    actualCostWei: null,
    txHash: null,
  }));
}

/** Records what a sponsored operation cost, as read from the chain. */
export async function recordActualCost(
  db: Kysely<Database>,
  id: string,
  actualCostWei: bigint,
  txHash: string,
): Promise<void> {
  await db
    .updateTable('sponsorships')
    .set({ actual_cost_wei: actualCostWei.toString(), tx_hash: txHash.toLowerCase() })
    .where('id', '=', id)
    .execute();
}
