import type { Kysely } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 29: network fees paid for people (ERC-4337 user operations with a paymaster).
// - sponsorships: each user operation whose fee the server agreed to pay (its paymaster data signed, or an
//   external paymaster's asked for): who asked, on which chain, the sender and its nonce (one per operation
//   that can ever run: re-asking for the same nonce replaces the row, never counts again), the operation's
//   hash (as the EntryPoint names it, without the account's signature), the most it can cost (all gas limits
//   × max fee, wei as text: 256-bit amounts fit no SQL integer of both dialects), the UTC day it counts in,
//   and once read from the chain (the EntryPoint's UserOperationEvent) its actual cost and transaction.
// - sponsor_usage: per UTC day, the count and the summed max cost of one account's ('account', user id) or
//   one chain's ('chain', chain id) sponsorships: the rows the limits are checked against, locked in the
//   transaction that records a sponsorship, so that several API servers never let more through than the
//   per-account limit or the per-chain cap.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sponsorships')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('chain_id', 'integer', (column) => column.notNull())
    .addColumn('sender', 'text', (column) => column.notNull())
    .addColumn('nonce', 'text', (column) => column.notNull())
    .addColumn('user_op_hash', 'text', (column) => column.notNull().unique())
    .addColumn('paymaster', 'text', (column) => column.notNull())
    .addColumn('max_cost_wei', 'text', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('actual_cost_wei', 'text')
    .addColumn('tx_hash', 'text')
    .addUniqueConstraint('sponsorships_operation', ['chain_id', 'sender', 'nonce'])
    .execute();
  await db.schema.createIndex('sponsorships_day').on('sponsorships').columns(['day', 'chain_id']).execute();

  await db.schema
    .createTable('sponsor_usage')
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('subject', 'text', (column) => column.notNull())
    .addColumn('day', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .addColumn('cost_wei', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('sponsor_usage_pkey', ['kind', 'subject', 'day'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('sponsor_usage').execute();
  await db.schema.dropTable('sponsorships').execute();
}
