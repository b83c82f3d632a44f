import { type Kysely, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 3 §3, activity: the transfers Dial users send, as their browsers record them.
// - One row per transaction: (chain_id, tx_hash) is unique, tx_hash is stored lower-case.
// - recipient_user_id: the Dial user whose wallet `to_address` was when the transfer was recorded (set to
//   null if that account is deleted); recipient_phone: the E.164 number the sender picked the recipient by.
// - amount: base units as a decimal string (a uint256 does not fit a SQL integer on every dialect).
// - Indexes for the two halves of a user's activity (sent, received) newest first, and by address.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('sender_user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('chain_id', 'integer', (column) => column.notNull())
    .addColumn('tx_hash', 'text', (column) => column.notNull())
    .addColumn('from_address', 'text', (column) => column.notNull())
    .addColumn('to_address', 'text', (column) => column.notNull())
    .addColumn('asset', 'text', (column) => column.notNull().check(sql`asset in ('native', 'usdc')`))
    .addColumn('amount', 'text', (column) => column.notNull())
    .addColumn('recipient_user_id', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('recipient_phone', 'text')
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('pending', 'confirmed', 'failed')`),
    )
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .addUniqueConstraint('transfers_chain_id_tx_hash', ['chain_id', 'tx_hash'])
    .execute();
  await db.schema
    .createIndex('transfers_sender_created_at')
    .on('transfers')
    .columns(['sender_user_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('transfers_recipient_created_at')
    .on('transfers')
    .columns(['recipient_user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('transfers_to_address').on('transfers').column('to_address').execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('transfers').execute();
}
