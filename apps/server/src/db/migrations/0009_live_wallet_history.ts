import { type Kysely, SqliteAdapter, sql } from 'kysely';

// Frozen once released: change the schema with a new migration, never by editing this one.
//
// Issue 11: an everyday wallet.
// - wallet_events: what changed in a user's wallet (a history entry added or settled, the key shares
//   rotated), in order, for the live stream (`GET /api/events`). Any server appends; any server streams it,
//   so a person's stream may be served by another server than the one that saw the change. `seq` orders the
//   events (an identity column in PostgreSQL, `integer primary key autoincrement` in SQLite); `kind` is not
//   constrained, so a later issue can add kinds without rebuilding the table. Rows are swept after a while:
//   a stream that was away longer reloads instead of replaying.
// - wallet_credits: money that reached an account's wallet other than by a Dial send: the dev faucet, an
//   on-ramp purchase or deposit, a USDC `Transfer` log or native value from any outside address (found by
//   the server's chain watcher), or a balance change seen without its transaction (`source` 'balance',
//   `tx_hash` null, `block_number` the block it was seen in). `dedupe_key` makes each credit one row however
//   many servers or watchers find it: `<chain>:<tx hash>:<log index or -1 for a transaction's own
//   value>:<wallet>` or `<chain>:balance:<wallet>:<block>`.
// - chain_watch: the chain watcher's place per chain: the next block to scan, and a claim so that one server
//   at a time scans a chain's next range.
// - price_quotes: the last price read per asset symbol and currency, shared by every server.

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
function isSqlite(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof SqliteAdapter;
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    await sql`create table wallet_events (
      seq integer primary key autoincrement,
      user_id text not null references users (id) on delete cascade,
      kind text not null,
      payload text not null,
      created_at text not null
    )`.execute(db);
  } else {
    await sql`create table wallet_events (
      seq bigint generated always as identity primary key,
      user_id text not null references users (id) on delete cascade,
      kind text not null,
      payload text not null,
      created_at text not null
    )`.execute(db);
  }
  await db.schema
    .createIndex('wallet_events_user_id_seq')
    .on('wallet_events')
    .columns(['user_id', 'seq'])
    .execute();
  await db.schema.createIndex('wallet_events_created_at').on('wallet_events').column('created_at').execute();

  await db.schema
    .createTable('wallet_credits')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('wallet_address', 'text', (column) => column.notNull())
    .addColumn('chain_id', 'integer', (column) => column.notNull())
    .addColumn('tx_hash', 'text')
    .addColumn('log_index', 'integer')
    .addColumn('dedupe_key', 'text', (column) => column.notNull().unique())
    .addColumn('source', 'text', (column) =>
      column.notNull().check(sql`source in ('faucet', 'onramp', 'outside', 'balance')`),
    )
    .addColumn('asset', 'text', (column) => column.notNull().check(sql`asset in ('native', 'usdc')`))
    .addColumn('amount', 'text', (column) => column.notNull())
    .addColumn('from_address', 'text')
    .addColumn('block_number', 'bigint')
    .addColumn('status', 'text', (column) =>
      column.notNull().check(sql`status in ('pending', 'confirmed', 'failed')`),
    )
    .addColumn('onramp_session', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createIndex('wallet_credits_user_id_created_at')
    .on('wallet_credits')
    .columns(['user_id', 'created_at', 'id'])
    .execute();
  await db.schema
    .createIndex('wallet_credits_chain_id_tx_hash')
    .on('wallet_credits')
    .columns(['chain_id', 'tx_hash'])
    .execute();
  await db.schema.createIndex('wallet_credits_status').on('wallet_credits').column('status').execute();

  await db.schema
    .createTable('chain_watch')
    .addColumn('chain_id', 'integer', (column) => column.primaryKey())
    .addColumn('next_block', 'bigint', (column) => column.notNull())
    .addColumn('claimed_until', 'text')
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();

  await db.schema
    .createTable('price_quotes')
    .addColumn('symbol', 'text', (column) => column.notNull())
    .addColumn('currency', 'text', (column) => column.notNull())
    .addColumn('price', 'text', (column) => column.notNull())
    .addColumn('fetched_at', 'text', (column) => column.notNull())
    .addPrimaryKeyConstraint('price_quotes_pk', ['symbol', 'currency'])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: a migration must not depend on today's Database type
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('price_quotes').execute();
  await db.schema.dropTable('chain_watch').execute();
  await db.schema.dropTable('wallet_credits').execute();
  await db.schema.dropTable('wallet_events').execute();
}
